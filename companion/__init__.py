"""The crib companion: a cribbage table helper that reads the cards, counts every score and pegs an LED board."""

__version__ = "0.1.0"
