"""Reviews: guests' reviews from Airbnb and Booking.com, their scores and the stay they are of, replies and
Airbnb's review of the guest."""
