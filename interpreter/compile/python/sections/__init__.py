"""The sections of a game compiled: actions and windows, triggers, the flow, end checks and scoring,
abilities, values with modifiers and extensible rules."""
