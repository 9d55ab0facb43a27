"""Balancing: games between bots, their statistics, reports, plots, exports and parallel runs
(`tabula simulate`, `tabula compare`)."""
