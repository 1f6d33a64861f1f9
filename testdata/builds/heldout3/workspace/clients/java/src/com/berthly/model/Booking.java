package com.berthly.model;

import java.time.Instant;

public final class Booking {
    public final String id;
    public final String berthId;
    public final String vessel;
    public final Instant from;
    public final Instant to;

    public Booking(String id, String berthId, String vessel, Instant from, Instant to) {
        this.id = id;
        this.berthId = berthId;
        this.vessel = vessel;
        this.from = from;
        this.to = to;
    }
}
