"""`python -m tabula`: the same command line as `tabula`."""

from tabula.cli.main import main

raise SystemExit(main())
