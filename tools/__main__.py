"""`python -m tabula`: the same command line as `tabula`."""

from tabula.cli import main

raise SystemExit(main())
