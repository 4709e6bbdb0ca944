"""Training of the dice detector (needs the `train` extra: torch). Never imported at run time."""
