"""Tools run from the checkout, not shipped with the companion: the card networks' build and the
synthesis of table scenes and camera troubles shared by that build, the benchmarks and the tests."""
