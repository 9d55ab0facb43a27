"""The command line: the table of subcommands (commands), argument parsing and dispatch (main), and
the small commands that tell about a game (check, variants, options, coverage, schema, verify, rules)."""
