"""`tabula serve`: play a game in the browser, against bots or hot seat, with the designer's tools.

`table` keeps the game and its history (undo, the history slider, save and load, live reload),
`start` how it began (a seed or a scenario file), `replay` replays choices under new rules, `bots`
plays the bot seats, `app` is the web application (FastAPI) and `static/` the page it serves.
"""
