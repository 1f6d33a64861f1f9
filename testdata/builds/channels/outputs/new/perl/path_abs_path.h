#line 1 "/dev/shm/build-twice.dmM1bV/later/checkout-two/channels/data/plan.txt"
