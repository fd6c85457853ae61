"""Identity: users, groups, API tokens and who may do what."""
