"""The native backend: a checked game lowered to a typed form (ir.py, lower.py), written as one C
translation unit (emit/, around the fixed C of runtime/), built into a shared library (build.py) and
run through ctypes (bridge.py). docs/ARCHITECTURE.md, "Native backend", says why and what it covers."""
