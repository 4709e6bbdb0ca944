"""The camera adapter: frame sources, a newest-frame grabber with a watchdog, motion, and the
loop that turns a settled roll on the table into one reading."""
