"""The web scoreboard: watched from any phone at the table, changed only with the table's PIN.

The scoreboard reads the game through views the game loop publishes (:mod:`companion.web.hub`); it
never holds or changes the game itself -- a change is an event posted to the loop, like a button press.
Importing this package is cheap; FastAPI and uvicorn load with :mod:`companion.web.app` and
:mod:`companion.web.server`.
"""
