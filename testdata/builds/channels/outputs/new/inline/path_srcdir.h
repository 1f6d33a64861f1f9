#define SRCDIR "/dev/shm/build-twice.dmM1bV/later/checkout-two/channels/data"
