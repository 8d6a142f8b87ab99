"""The crib companion: reads the cards on a cribbage table, counts every score and pegs an LED board."""

__version__ = "0.1.0"
