#define SRCDIR "/tmp/build-twice.6QTkos/checkout/channels/data"
