"""What the advisor's figures rest on, fitted once by simulation."""
