package io.sluice.s3.server;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

class LocalS3ServerTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static int send(HttpRequest r) throws Exception {
        return HTTP.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void sharedServerRefusesASecondExclusiveCreateAsAwsDoes() throws Exception {
        LocalS3Server s = SharedLocalS3Server.get();
        assertThat(SharedLocalS3Server.get()).isSameAs(s);
        String bucket = s.endpoint() + "/server-test";
        assertThat(send(HttpRequest.newBuilder(URI.create(bucket)).PUT(HttpRequest.BodyPublishers.noBody()).build()))
                .isEqualTo(200);
        HttpRequest put = HttpRequest.newBuilder(URI.create(bucket + "/a.txt")).header("If-None-Match", "*")
                .PUT(HttpRequest.BodyPublishers.ofString("one")).build();
        assertThat(send(put)).isEqualTo(200);
        assertThat(send(put)).isEqualTo(412);
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(bucket + "/a.txt")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.body()).isEqualTo("one");
        assertThat(s.dataDir()).isDirectory();
    }
}
