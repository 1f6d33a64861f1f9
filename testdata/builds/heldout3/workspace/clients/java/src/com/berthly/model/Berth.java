package com.berthly.model;

public final class Berth {
    public final String id;
    public final String harbour;
    public final double lengthMetres;

    public Berth(String id, String harbour, double lengthMetres) {
        this.id = id;
        this.harbour = harbour;
        this.lengthMetres = lengthMetres;
    }
}
