#line 1 "/tmp/build-twice.6QTkos/checkout/channels/data/plan.txt"
