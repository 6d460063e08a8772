package io.sluice.s3;

import io.sluice.s3.server.LocalS3Server;
import io.sluice.s3.server.SharedLocalS3Server;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** The shared real server, a configuration that reaches it, and a client to set up buckets. */
final class S3TestSupport {
    private S3TestSupport() {
    }

    static LocalS3Server server() {
        return SharedLocalS3Server.get();
    }

    static Map<String, String> conf() {
        return conf(server().endpoint());
    }

    static Map<String, String> conf(String endpoint) {
        Map<String, String> c = new HashMap<>();
        c.put(S3Options.ENDPOINT, endpoint);
        c.put(S3Options.PATH_STYLE, "true");
        c.put(S3Options.ACCESS_KEY, "test-access-key");
        c.put(S3Options.SECRET_KEY, "test-secret-do-not-show");
        return c;
    }

    /** A new bucket with a unique name. */
    static String newBucket(String hint) {
        String name = (hint + "-" + UUID.randomUUID()).toLowerCase().substring(0, Math.min(60, hint.length() + 37));
        try (S3Client c = client()) {
            c.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    static S3Client client() {
        return S3Client.builder().endpointOverride(URI.create(server().endpoint())).forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .build();
    }
}
