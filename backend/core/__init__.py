"""The kernel every domain shares: errors, field checks, money, dates, lists, settings, keys, events,
validation, strict JSON, card data, and the guard and limits of calls in and out. It imports no domain."""
