"""Stage run: the machine that plays a compiled game over plain-data states (runtime, flow, work
budget, what generated code calls), saves, argument checks, seat knowledge and determinisation.
Imports base, load, model; never compile."""
