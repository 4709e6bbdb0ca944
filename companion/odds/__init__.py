"""What each choice at the table is worth: rollouts of the rest of a round in counts."""
