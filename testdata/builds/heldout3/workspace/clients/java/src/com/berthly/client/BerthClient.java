package com.berthly.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;

public final class BerthClient {
    private final URI base;
    private final HttpClient http = HttpClient.newHttpClient();

    public BerthClient(URI base) {
        this.base = base;
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path))
            .header("User-Agent", "berth-java/" + BuildConfig.VERSION + " (" + BuildConfig.BUILD_TIME + ")");
    }
}
