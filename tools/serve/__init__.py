"""`tabula serve`: play a game in the browser, against bots or hot seat, with the designer's tools.

In import order: `model` (the rules, seats, reload report and refusals a table is made of), `bots`
(plays the bot seats), `start` (how a game began: a seed or a scenario file), `saves` (a save file
read back, every path in it confined to the game's folder), `export` (a position as a scenario
file), `replay` (choices replayed under new rules, and what moved), `table` (the game and its
history: undo, the history slider, save and load, live reload), `access` (the secret links and who
may do what), `guard` (request bodies bounded before parsing, uploads), `app` (the web application,
FastAPI) and `command` (`tabula serve`); `static/` holds the page the app serves.
"""
