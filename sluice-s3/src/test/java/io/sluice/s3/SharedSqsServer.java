package io.sluice.s3;

import org.elasticmq.NodeAddress;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.UUID;

/**
 * A real SQS-compatible server (ElasticMQ, from Maven Central) in this JVM, started on first use and stopped when
 * the JVM exits, shared by the test classes; each test makes its own queues.
 */
final class SharedSqsServer {
    private static String endpoint;

    private SharedSqsServer() {
    }

    /** {@code http://localhost:<port>}, the server started if needed. */
    static synchronized String endpoint() {
        if (endpoint == null) {
            int port;
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress("localhost", 0));
                port = s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // The server address is what queue URLs name: this host and port.
            SQSRestServer server = SQSRestServerBuilder.withInterface("localhost").withPort(port)
                    .withServerAddress(new NodeAddress("http", "localhost", port, "")).start();
            server.waitUntilStarted();
            Runtime.getRuntime().addShutdownHook(new Thread(server::stopAndWait, "elasticmq-shutdown"));
            endpoint = "http://localhost:" + port;
        }
        return endpoint;
    }

    static SqsClient client() {
        return SqsClient.builder().endpointOverride(URI.create(endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .build();
    }

    /** A new queue whose received messages come again after {@code visibilitySeconds}; its URL. */
    static String newQueue(String hint, int visibilitySeconds) {
        try (SqsClient c = client()) {
            return c.createQueue(b -> b.queueName(hint + "-" + UUID.randomUUID())
                    .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilitySeconds))))
                    .queueUrl();
        }
    }

    /** Messages in the queue, visible or received and not deleted. */
    static int messagesIn(String queueUrl) {
        try (SqsClient c = client()) {
            Map<QueueAttributeName, String> a = c.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            return Integer.parseInt(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    + Integer.parseInt(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
        }
    }

    /** Sends an S3 event notification as S3 shapes it: key form-encoded. */
    static void sendEvent(String queueUrl, String eventName, String bucket, String key) {
        String encoded = java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8)
                .replace("%2F", "/");
        String body = "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                + "\"eventTime\":\"2026-12-02T10:00:00.000Z\",\"eventName\":\"" + eventName + "\",\"s3\":{"
                + "\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"landing\",\"bucket\":{\"name\":\"" + bucket
                + "\",\"arn\":\"arn:aws:s3:::" + bucket + "\"},\"object\":{\"key\":\"" + encoded + "\",\"size\":12,"
                + "\"eTag\":\"0123456789abcdef\",\"sequencer\":\"0055AED6DCD90281E5\"}}}]}";
        try (SqsClient c = client()) {
            c.sendMessage(b -> b.queueUrl(queueUrl).messageBody(body));
        }
    }
}
