"""Bots for `tabula play`, `tabula simulate` and the trace files: `base` (what a bot sees and returns,
budgets, the bots' generator), `simple` (random and greedy), `search` (MCTS and ISMCTS),
`evaluation` (the position estimate search reads) and `spec` (bots by name, from a spec such as
`ismcts:0.25s`)."""
