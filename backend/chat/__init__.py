"""Guest chat: threads, messages, attachments, inquiries, and the channels' inbound path and outbox."""

# The service is imported from backend.chat.service: importing a module of this package (as the console's start
# does) must not import the service and all it needs.
