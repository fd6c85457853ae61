-- Hotel policies take the service's parking type `location_nearby` (its booking engine's and Booking.com's value)
-- for our older `nearby`.
UPDATE hotel_policies SET policy = json_set(policy, '$.parking_type', 'location_nearby')
    WHERE json_extract(policy, '$.parking_type') = 'nearby';
