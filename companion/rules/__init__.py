"""The rules of cribbage: the show, the play and the game.  No I/O: only the standard library and cards."""
