package io.sluice.s3;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The AWS SDK's first use in a JVM loads about 3,000 classes: building a client about 1,700 (1.1 s of CPU
 * measured), the first ListObjectsV2 about 1,000 and the first GET 300 more (0.7 s together). Started once per JVM
 * when the first S3 storage is opened, this runs that request path (a listing, a GET, a PUT) on a daemon thread
 * named {@value #THREAD} against a client whose HTTP client answers from memory, so that those classes load on a
 * second core while the caller builds its real client and sends its first request. No request leaves the JVM: the
 * credentials, region and endpoint are fixed ones, never the user's (a default credential chain could call an
 * instance-metadata endpoint).
 */
final class SdkWarmUp {
    static final String THREAD = "sluice-s3-sdk-warmup";
    private static final Logger LOG = LoggerFactory.getLogger(SdkWarmUp.class);
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final String BUCKET = "sluice-warm-up";
    private static final byte[] LISTING = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult "
            + "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>" + BUCKET + "</Name><Prefix>k</Prefix>"
            + "<KeyCount>1</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>k</Key>"
            + "<LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>\"0\"</ETag><Size>1</Size>"
            + "<StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>").getBytes(StandardCharsets.UTF_8);

    private SdkWarmUp() {
    }

    /** Starts the warm-up unless it was started before in this JVM; returns at once. */
    static void startOnce() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                run();
            } catch (RuntimeException | LinkageError e) {
                // Only time is at stake: the real client loads what it needs itself.
                LOG.debug("The AWS SDK's warm-up failed", e);
            }
        }, THREAD);
        t.setDaemon(true);
        t.start();
    }

    /**
     * The warm-up itself, on the calling thread.
     *
     * @return the keys listed, the bytes read and the ETag written, for a test to see that every step completed
     */
    static String run() {
        S3Settings fixed = new S3Settings(BUCKET, Optional.of("warm-up"), Optional.of("warm-up"), Optional.empty(),
                Optional.of(URI.create("http://localhost:1")), Optional.of("us-east-1"), true, 1, 1000, 1);
        try (S3Client c = S3Storage.builder(fixed).httpClient(new InMemory()).build()) {
            String key = c.listObjectsV2(l -> l.bucket(BUCKET).prefix("k").maxKeys(1)).contents().get(0).key();
            String body;
            try (InputStream in = c.getObject(g -> g.bucket(BUCKET).key(key).ifMatch("\"0\""))) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String etag = c.putObject(p -> p.bucket(BUCKET).key(key).ifNoneMatch("*"),
                    RequestBody.fromBytes(new byte[] {1})).eTag();
            return key + " " + body + " " + etag;
        }
    }

    /** Answers a listing with {@link #LISTING}, a GET with one byte, anything else with an empty 200. */
    private static final class InMemory implements SdkHttpClient {
        @Override
        public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            boolean listing = request.httpRequest().firstMatchingRawQueryParameter("list-type").isPresent();
            boolean get = request.httpRequest().method() == SdkHttpMethod.GET;
            byte[] body = listing ? LISTING : get ? new byte[] {'x'} : new byte[0];
            return new ExecutableHttpRequest() {
                @Override
                public HttpExecuteResponse call() {
                    SdkHttpResponse.Builder r = SdkHttpResponse.builder().statusCode(200).statusText("OK")
                            .putHeader("ETag", "\"0\"").putHeader("Content-Length", Integer.toString(body.length));
                    if (listing) {
                        r.putHeader("Content-Type", "application/xml");
                    }
                    return HttpExecuteResponse.builder().response(r.build())
                            .responseBody(AbortableInputStream.create(new ByteArrayInputStream(body))).build();
                }

                @Override
                public void abort() {
                }
            };
        }

        @Override
        public void close() {
        }
    }
}
