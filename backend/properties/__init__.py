"""Properties: the physical premises that everything else hangs from."""

# The service is imported from backend.properties.service: importing a module of this package (as the console's start
# does) must not import the service and all it needs.
