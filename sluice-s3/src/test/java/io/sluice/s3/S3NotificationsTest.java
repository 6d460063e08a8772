package io.sluice.s3;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.Row;
import io.sluice.core.ManualClock;
import io.sluice.core.SourceProgress;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Sluice;
import io.sluice.core.Trigger;
import io.sluice.core.sinks.MemorySink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * useNotifications on the real S3 server and a real SQS-compatible one (ElasticMQ): new objects come from S3
 * event notifications, a full listing at start and every backfillInterval finds what lost messages did not say,
 * and the seen-files state makes duplicated and late messages harmless. Messages are deleted after the commit.
 */
class S3NotificationsTest {
    private static final long T = 1_780_000_000_000L;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(T);
    private Sluice sluice;
    private S3Client client;
    private String bucket;
    private String table;
    private String queue;
    private StreamingQuery query;
    private int triggers;

    @BeforeEach
    void setUp() {
        sluice = Sluice.builder().clock(clock).parallelism(2).build();
        client = S3TestSupport.client();
        bucket = S3TestSupport.newBucket("notif");
        table = S3TestSupport.tableName("notif_");
        queue = SharedSqsServer.newQueue("landing", 1);
    }

    @AfterEach
    void tearDown() {
        if (query != null) {
            query.stop();
        }
        sluice.close();
        client.close();
    }

    private void put(String key, int id) {
        S3TestSupport.put(client, bucket, key, "{\"id\":" + id + "}\n");
    }

    private void created(String key) {
        SharedSqsServer.sendEvent(queue, "ObjectCreated:Put", bucket, key);
    }

    private io.sluice.core.DataStreamReader reader() {
        var reader = sluice.readStream().format("json").schema("id long");
        S3TestSupport.conf().forEach(reader::option);
        return reader.option("useNotifications", "true").option("queueUrl", queue).option("backfillInterval", "1h");
    }

    private void start() {
        query = reader().load("s3a://" + bucket + "/in").writeStream().format("memory").queryName(table)
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.processingTime(1000))
                .start();
        awaitTrigger();
    }

    private SourceProgress next(long ms) {
        clock.advance(ms);
        awaitTrigger();
        return query.lastProgress().sources().get(0);
    }

    private void awaitTrigger() {
        S3TestSupport.awaitTrigger(query, clock, ++triggers);
    }

    private Map<Long, List<Long>> batches() {
        return S3TestSupport.idsByBatch(table);
    }

    @Test
    void newObjectsComeFromMessagesAndDuplicatedLateOutsideOrLostOnesNeverDuplicateNorLoseAFile() {
        put("in/a.json", 1); // before the start, with no message: the start's full listing finds it
        start();
        assertThat(query.lastProgress().sources().get(0).metrics()).containsEntry("numFullListings", "1")
                .containsEntry("numListCalls", "1").containsEntry("numMessagesReceived", "0");

        put("in/b c.json", 2);
        created("in/b c.json");
        created("in/b c.json"); // duplicated
        created("in/a.json"); // late: already listed and read
        put("other/x.json", 99);
        created("other/x.json"); // outside the path
        put("in/_tmp.json", 98);
        created("in/_tmp.json"); // a hidden name
        SharedSqsServer.sendEvent(queue, "ObjectRemoved:Delete", bucket, "in/old.json"); // not a creation
        put("in/c.json", 3); // its message is lost
        SourceProgress s = next(1000);
        // No listing: the files come from the messages, each looked up.
        assertThat(s.metrics()).containsEntry("numListCalls", "0").containsEntry("numKeysListed", "0")
                .containsEntry("numMessagesReceived", "6").containsEntry("numMessagesDeleted", "6")
                .containsEntry("numMessagesPending", "0").containsEntry("numFullListings", "1");
        assertThat(SharedSqsServer.messagesIn(queue)).isZero();

        put("in/d.json", 4);
        created("in/d.json");
        // backfillInterval after the start: a full listing finds the object whose message was lost.
        s = next(HOUR);
        assertThat(s.metrics()).containsEntry("numFullListings", "2").containsEntry("numListCalls", "1")
                .containsEntry("numMessagesDeleted", "7");
        assertThat(batches()).isEqualTo(Map.of(0L, List.of(1L), 1L, List.of(2L), 2L, List.of(3L, 4L)));
        assertThat(SharedSqsServer.messagesIn(queue)).isZero();
    }

    /**
     * A batch that fails before its commit leaves its message in the queue; the restarted query runs the batch
     * again from the seen-files log (the file once), and deletes the message when it comes again.
     */
    @Test
    void aMessageIsDeletedOnlyAfterItsBatchCommitsAndARestartReadsItsFileOnce() throws Exception {
        put("in/a.json", 1);
        created("in/a.json");
        StreamingQuery failing = reader().load("s3a://" + bucket + "/in").writeStream()
                .foreachBatch((batch, id) -> {
                    throw new IllegalStateException("the sink is down");
                })
                .option("checkpointLocation", tmp.resolve("chk").toString()).trigger(Trigger.availableNow()).start();
        assertThatThrownBy(() -> failing.awaitTermination(60_000))
                .isInstanceOf(io.sluice.core.StreamingQueryException.class).hasMessageContaining("the sink is down");
        assertThat(SharedSqsServer.messagesIn(queue)).isEqualTo(1); // received, not deleted

        // Runs until the message, visible again after the queue's 1 s visibility timeout, is received and deleted.
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            StreamingQuery q = reader().load("s3a://" + bucket + "/in").writeStream().format("memory")
                    .queryName(table).option("checkpointLocation", tmp.resolve("chk").toString())
                    .trigger(Trigger.availableNow()).start();
            assertThat(q.awaitTermination(60_000)).isTrue();
            assertThat(q.exception()).isEmpty();
            return SharedSqsServer.messagesIn(queue) == 0;
        });
        assertThat(MemorySink.rows(table).stream().map(Row::toString).toList()).containsExactly("[1]");
        assertThat(batches()).containsOnlyKeys(0L);
    }

    @Test
    void notificationOptionsAreCheckedNamingOptionValueAndWhatIsAccepted() {
        assertThatThrownBy(() -> reader().option("queueUrl", "not a url").load("s3a://" + bucket + "/in"))
                .isInstanceOf(InvalidOptionException.class).hasMessage("Invalid value 'not a url' for option "
                        + "'queueUrl': an SQS queue URL such as "
                        + "https://sqs.us-east-1.amazonaws.com/123456789012/landing-events");
        assertThatThrownBy(() -> reader().option("backfillInterval", "0").load("s3a://" + bucket + "/in"))
                .isInstanceOf(InvalidOptionException.class).hasMessage("Invalid value '0' for option "
                        + "'backfillInterval': a positive duration such as 30m, 1h or 1d is accepted (the time "
                        + "between two full listings)");
        assertThatThrownBy(() -> reader().load(tmp.toString())).isInstanceOf(InvalidOptionException.class)
                .hasMessage("useNotifications=true reads an object store's event notifications, and the path "
                        + tmp + " is on the local disk: give an s3a:// path, or leave useNotifications out");
    }

    @Test
    void s3EventsAreParsedDirectOrThroughSns() {
        String event = "{\"Records\":[{\"eventName\":\"ObjectCreated:CompleteMultipartUpload\",\"s3\":{\"bucket\":"
                + "{\"name\":\"lake\"},\"object\":{\"key\":\"in/day%3D1/a+b%C3%A9.json\"}}},{\"eventName\":"
                + "\"ObjectRemoved:Delete\",\"s3\":{\"bucket\":{\"name\":\"lake\"},\"object\":{\"key\":\"x\"}}}]}";
        assertThat(SqsNotifications.objects(event)).containsExactly("lake/in/day=1/a bé.json");
        String sns = "{\"Type\":\"Notification\",\"Message\":" + com.fasterxml.jackson.databind.node.TextNode
                .valueOf(event) + "}";
        assertThat(SqsNotifications.objects(sns)).containsExactly("lake/in/day=1/a bé.json");
        assertThat(SqsNotifications.objects("{\"Event\":\"s3:TestEvent\"}")).isEmpty();
        assertThat(SqsNotifications.objects("not json")).isEmpty();
    }
}
