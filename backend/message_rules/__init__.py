"""Messages that send themselves: rules that send a saved reply on a booking event (service.py), once per booking
and rule (message_rule_sends), by a sweep of the deliverer."""
