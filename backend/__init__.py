"""The Frontdesk engine: every rule of the domain lives here and nowhere else."""
