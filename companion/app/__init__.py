"""The live companion at the table: one game loop fed by the camera, the controls and the scoreboard.

Importing this package is cheap: the loop, the journal and the command line are in their own modules and
pull in the camera, the board link or the web server only when a game actually uses them.
"""
