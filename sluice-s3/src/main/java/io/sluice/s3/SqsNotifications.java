package io.sluice.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.api.InvalidOptionException;
import io.sluice.files.fs.ObjectNotifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;

import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The messages of an SQS queue that S3 event notifications are delivered to (directly, or through SNS: the
 * event is then the {@code Message} field of the SNS envelope), on the SDK's sync client over the URL connection,
 * with the bucket's credentials and settings ({@code fs.s3a.*}). Only {@code ObjectCreated:*} records name
 * objects; keys are decoded as S3 encodes them in events (form encoding: {@code +} is a space).
 */
final class SqsNotifications implements ObjectNotifications {
    private static final Logger LOG = LoggerFactory.getLogger(SqsNotifications.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** AWS's queue hosts: {@code sqs.<region>.amazonaws.com} (and the legacy {@code <region>.queue.amazonaws.com}). */
    private static final Pattern AWS_HOST = Pattern.compile("^(?:sqs\\.)?([a-z0-9-]+)\\.(?:queue\\.)?amazonaws\\.com(?:\\.cn)?$");

    private final SqsClient client;
    private final String queueUrl;

    private SqsNotifications(SqsClient client, String queueUrl) {
        this.client = client;
        this.queueUrl = queueUrl;
    }

    static SqsNotifications open(String queueUrl, S3Settings s) {
        URI u;
        try {
            u = URI.create(queueUrl.trim());
        } catch (IllegalArgumentException e) {
            u = null;
        }
        if (u == null || u.getHost() == null || u.getScheme() == null) {
            throw new InvalidOptionException("queueUrl", queueUrl, "an SQS queue URL such as "
                    + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events");
        }
        // Requests go to the queue URL's host: AWS's regional endpoint, or a local SQS-compatible server.
        URI endpoint = URI.create(u.getScheme() + "://" + u.getAuthority());
        Matcher m = AWS_HOST.matcher(u.getHost());
        Region region = m.matches() ? Region.of(m.group(1)) : S3Storage.region(s);
        SqsClient client = SqsClient.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofMillis(s.connectTimeoutMs()))
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .credentialsProvider(S3Storage.credentials(s))
                .region(region)
                .endpointOverride(endpoint)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(s.attempts()).build()))
                .build();
        return new SqsNotifications(client, queueUrl.trim());
    }

    @Override
    public List<ObjectNotifications.Message> receive() throws IOException {
        ReceiveMessageResponse r;
        try {
            r = client.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(0));
        } catch (SdkException e) {
            throw new IOException("Cannot receive messages from the SQS queue " + queueUrl + ": " + e.getMessage(),
                    e);
        }
        List<ObjectNotifications.Message> out = new ArrayList<>(r.messages().size());
        for (software.amazon.awssdk.services.sqs.model.Message m : r.messages()) {
            out.add(new ObjectNotifications.Message(m.messageId(), m.receiptHandle(), objects(m.body())));
        }
        return out;
    }

    /** The {@code bucket/key} of each ObjectCreated record of an S3 event (or of one in an SNS envelope). */
    static List<String> objects(String body) {
        List<String> out = new ArrayList<>();
        JsonNode root;
        try {
            root = JSON.readTree(body);
            if (root != null && !root.has("Records") && root.path("Message").isTextual()) {
                root = JSON.readTree(root.get("Message").asText()); // through SNS
            }
        } catch (IOException e) {
            LOG.warn("A message of the notification queue is not an S3 event (not JSON: {}); ignored",
                    e.getMessage());
            return out;
        }
        if (root == null) {
            return out;
        }
        for (JsonNode rec : root.path("Records")) {
            if (!rec.path("eventName").asText("").startsWith("ObjectCreated:")) {
                continue;
            }
            String bucket = rec.path("s3").path("bucket").path("name").asText("");
            String key = rec.path("s3").path("object").path("key").asText("");
            if (bucket.isEmpty() || key.isEmpty()) {
                continue;
            }
            out.add(bucket + "/" + URLDecoder.decode(key, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Override
    public void delete(Collection<ObjectNotifications.Message> messages) throws IOException {
        List<ObjectNotifications.Message> all = new ArrayList<>(messages);
        for (int i = 0; i < all.size(); i += 10) {
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int j = i; j < Math.min(all.size(), i + 10); j++) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(j - i))
                        .receiptHandle(all.get(j).handle()).build());
            }
            DeleteMessageBatchResponse r;
            try {
                r = client.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            } catch (SdkException e) {
                throw new IOException("Cannot delete messages from the SQS queue " + queueUrl + ": "
                        + e.getMessage(), e);
            }
            if (r.hasFailed() && !r.failed().isEmpty()) {
                // An expired receipt handle: the message comes again and is deleted then.
                LOG.info("{} messages of {} were not deleted ({}): they will be received again", r.failed().size(),
                        queueUrl, r.failed().get(0).message());
            }
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
