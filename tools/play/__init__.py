"""`tabula play`: the terminal screen and the board one seat sees (shared with `tabula serve`)."""
