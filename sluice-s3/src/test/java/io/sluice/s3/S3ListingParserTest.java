package io.sluice.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link S3ListingParser} and {@link ListingInterceptor} on recorded bodies, without a server: each body is also
 * given to the SDK's own unmarshalling (a client whose HTTP client answers with it), and the two must agree on
 * every key, size, LastModified, ETag, IsTruncated and token.
 */
class S3ListingParserTest {

    private static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";

    /** As AWS S3 writes it: one line, entities for the markup characters, raw UTF-8 for the rest. */
    private static final String TRUNCATED = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<ListBucketResult xmlns=\"" + NS + "\"><Name>b</Name><Prefix>odd/</Prefix>"
            + "<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
            + "<KeyCount>11</KeyCount><MaxKeys>11</MaxKeys><IsTruncated>true</IsTruncated>"
            + contents("odd/a&amp;b", 3, "2026-12-03T15:33:40.123Z", "&quot;0cc175b9c0f1b6a831c399e269772661&quot;")
            + contents("odd/&lt;lt&gt;", 0, "2026-01-01T00:00:00.000Z", "&quot;d41d8cd98f00b204e9800998ecf8427e&quot;")
            + contents("odd/q&quot;uote &apos;apos&apos;", 12, "2024-02-29T23:59:59.999Z", "&quot;e-1&quot;")
            + contents("odd/with space+plus%20pct%", 1234567890123L, "1999-12-31T23:59:59.001Z", "&quot;x&quot;")
            + contents("odd/café-ü-中文", 5, "2026-12-03T15:33:40.000Z", "&quot;abc-2&quot;")
            + contents("odd/emoji-😀", 6, "2026-12-03T15:33:40.5Z", "&quot;f&quot;")
            + contents("odd/refs-&#233;-&#xe9;-&#x1F600;-&#38;-&#x3C;", 7, "2026-12-03T15:33:40Z", "&quot;g&quot;")
            + contents("odd/dir/", 0, "2026-12-03T15:33:40.123+01:00", "&quot;d41d8cd98f00b204e9800998ecf8427e&quot;")
            + contents("odd/ctl-&#13;-&#9;-&#10;-end", 8, "2026-12-03T15:33:40.123Z", "&quot;h&quot;")
            + contents("odd/ <lead and trail> ".replace("<", "&lt;").replace(">", "&gt;"), 9,
                    "2026-12-03T15:33:40.123Z", "&quot;i&quot;")
            + contents("odd/raw-gt->-apos-'-quot-\"", 10, "2026-12-03T15:33:40.123Z", "\"j\"")
            + "</ListBucketResult>";

    /** Pretty-printed, with a prefix on the names, a comment, CDATA and CR LF line ends; the last page. */
    private static final String LAST = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
            + "<s3:ListBucketResult xmlns:s3=\"" + NS + "\">\r\n"
            + "  <s3:Name>b</s3:Name>\r\n"
            + "  <!-- a comment <Contents> -->\r\n"
            + "  <s3:Contents>\r\n"
            + "    <s3:Key><![CDATA[odd/cdata-&amp;-<x>]]></s3:Key>\r\n"
            + "    <s3:LastModified>2026-12-03T15:33:40.123Z</s3:LastModified>\r\n"
            + "    <s3:ETag>\"k\"</s3:ETag>\r\n"
            + "    <s3:Size>11</s3:Size>\r\n"
            + "    <s3:Owner><s3:ID>o</s3:ID><s3:DisplayName>d</s3:DisplayName></s3:Owner>\r\n"
            + "    <s3:StorageClass>STANDARD</s3:StorageClass>\r\n"
            + "  </s3:Contents>\r\n"
            + "  <s3:Contents><s3:Key>odd/line\r\nbreak\rcr</s3:Key><s3:Size>12</s3:Size>"
            + "<s3:LastModified>2026-12-03T15:33:40.123Z</s3:LastModified></s3:Contents>\r\n"
            + "  <s3:IsTruncated>false</s3:IsTruncated>\r\n"
            + "</s3:ListBucketResult>\r\n";

    /** encoding-type=url: the SDK decodes the keys (not the token). */
    private static final String URL_ENCODED = "<ListBucketResult xmlns=\"" + NS + "\">"
            + "<EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>"
            + "<NextContinuationToken>a%2Bb</NextContinuationToken>"
            + contents("odd/with+space%2Bplus%25%C3%A9", 1, "2026-12-03T15:33:40.123Z", "&quot;l&quot;")
            + "</ListBucketResult>";

    private static final String EMPTY = "<ListBucketResult xmlns=\"" + NS + "\"><Name>b</Name><Prefix>none/</Prefix>"
            + "<KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>";

    private static String contents(String key, long size, String lastModified, String etag) {
        return "<Contents><Key>" + key + "</Key><LastModified>" + lastModified + "</LastModified><ETag>" + etag
                + "</ETag><Size>" + size + "</Size><StorageClass>STANDARD</StorageClass></Contents>";
    }

    @Test
    void decodesKeysExactlyAndReadsThePageFields() {
        S3ListingParser.Page p = S3ListingParser.parse(bytes(TRUNCATED));
        assertThat(p).isNotNull();
        assertThat(p.truncated()).isTrue();
        assertThat(p.nextContinuationToken()).isEqualTo("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
        assertThat(p.entries()).extracting(S3ListingParser.Entry::key).containsExactly(
                "odd/a&b", "odd/<lt>", "odd/q\"uote 'apos'", "odd/with space+plus%20pct%", "odd/café-ü-中文",
                "odd/emoji-😀", "odd/refs-é-é-😀-&-<", "odd/dir/", "odd/ctl-\r-\t-\n-end", "odd/ <lead and trail> ",
                "odd/raw-gt->-apos-'-quot-\"");
        assertThat(p.entries().get(0)).isEqualTo(new S3ListingParser.Entry("odd/a&b", 3,
                Instant.parse("2026-12-03T15:33:40.123Z").toEpochMilli(), "\"0cc175b9c0f1b6a831c399e269772661\""));
        assertThat(p.entries()).extracting(S3ListingParser.Entry::size)
                .containsExactly(3L, 0L, 12L, 1234567890123L, 5L, 6L, 7L, 0L, 8L, 9L, 10L);
        assertThat(p.entries().get(5).lastModifiedMillis())
                .isEqualTo(Instant.parse("2026-12-03T15:33:40.500Z").toEpochMilli());
        assertThat(p.entries().get(7).lastModifiedMillis())
                .isEqualTo(Instant.parse("2026-12-03T14:33:40.123Z").toEpochMilli());

        S3ListingParser.Page last = S3ListingParser.parse(bytes(LAST));
        assertThat(last.truncated()).isFalse();
        assertThat(last.nextContinuationToken()).isNull();
        assertThat(last.entries()).containsExactly(
                new S3ListingParser.Entry("odd/cdata-&amp;-<x>", 11,
                        Instant.parse("2026-12-03T15:33:40.123Z").toEpochMilli(), "\"k\""),
                new S3ListingParser.Entry("odd/line\nbreak\ncr", 12,
                        Instant.parse("2026-12-03T15:33:40.123Z").toEpochMilli(), null));

        assertThat(S3ListingParser.parse(bytes(URL_ENCODED)).entries()).extracting(S3ListingParser.Entry::key)
                .containsExactly("odd/with space+plus%é");
        assertThat(S3ListingParser.parse(bytes(EMPTY))).isEqualTo(new S3ListingParser.Page(List.of(), false, null));
    }

    @Test
    void agreesWithTheSdksOwnUnmarshalling() {
        for (String body : List.of(TRUNCATED, LAST, URL_ENCODED, EMPTY)) {
            ListObjectsV2Response sdk;
            try (S3Client c = client(200, body, null)) {
                sdk = c.listObjectsV2(l -> l.bucket("b").prefix("odd/"));
            }
            assertThat(S3ListingParser.parse(bytes(body))).isEqualTo(S3ListingParser.Page.of(sdk));
        }
    }

    @Test
    void declinesWhatItDoesNotReadExactlySoTheSdkReadsIt() {
        assertThat(S3ListingParser.parse(bytes("<Error><Code>NoSuchBucket</Code></Error>"))).isNull();
        assertThat(S3ListingParser.parse(bytes(EMPTY.replace("none/", "&nbsp;")))).isNull();
        assertThat(S3ListingParser.parse(bytes("<!DOCTYPE x>" + EMPTY))).isNull();
        assertThat(S3ListingParser.parse(bytes(EMPTY.substring(0, EMPTY.length() - 5)))).isNull();
        assertThat(S3ListingParser.parse(bytes(TRUNCATED.replace("<Size>3<", "<Size>3x<")))).isNull();
        assertThat(S3ListingParser.parse(bytes(TRUNCATED.replace("&#233;", "&#xD800;")))).isNull();
        assertThat(S3ListingParser.parse(bytes(""))).isNull();
        assertThat(S3ListingParser.parse(bytes(TRUNCATED.replace("odd/a&amp;b", "odd/a<!-- c -->b")))).isNull();
        assertThat(S3ListingParser.parse(bytes(TRUNCATED.replace("2026-01-01", "2026-13-01")))).isNull();
    }

    @Test
    void theInterceptorHandsThePageOverAndTheSdkAnEmptyResult() {
        AtomicInteger calls = new AtomicInteger();
        try (S3Client c = client(200, TRUNCATED, calls)) {
            ListingInterceptor.Holder h = new ListingInterceptor.Holder();
            ListObjectsV2Response r = c.listObjectsV2(l -> l.bucket("b").prefix("odd/")
                    .overrideConfiguration(o -> o.putExecutionAttribute(ListingInterceptor.PAGE, h)));
            assertThat(r.contents()).isEmpty();
            assertThat(r.isTruncated()).isFalse();
            assertThat(h.page).isEqualTo(S3ListingParser.parse(bytes(TRUNCATED)));
            // Without a holder (status(), or anyone else's request) the SDK reads the body itself.
            ListObjectsV2Response plain = c.listObjectsV2(l -> l.bucket("b").prefix("odd/"));
            assertThat(plain.contents()).hasSize(11);
            assertThat(S3ListingParser.Page.of(plain)).isEqualTo(h.page);
            // A body the scanner declines: the SDK's response, the holder left empty.
            ListingInterceptor.Holder declined = new ListingInterceptor.Holder();
            String noLastModified = "<ListBucketResult xmlns=\"" + NS + "\"><Contents><Key>odd/k</Key>"
                    + "<Size>1</Size></Contents><IsTruncated>false</IsTruncated></ListBucketResult>";
            try (S3Client odd = client(200, noLastModified, null)) {
                ListObjectsV2Response sdk = odd.listObjectsV2(l -> l.bucket("b")
                        .overrideConfiguration(o -> o.putExecutionAttribute(ListingInterceptor.PAGE, declined)));
                assertThat(sdk.contents()).extracting(o -> o.key()).containsExactly("odd/k");
            }
            assertThat(declined.page).isNull();
        }
        assertThat(calls).hasValue(2);
    }

    @Test
    void aBodyThatOnlySeemsToEndAtAReadIsGivenToTheSdkWhole() {
        // A CDATA key holding the root's end tag exactly where the interceptor's first 8 KiB read ends: it stops
        // there, the scanner declines the truncated document, and the SDK reads those bytes and the rest.
        String head = "<ListBucketResult xmlns=\"" + NS + "\"><Contents><Key><![CDATA[odd/";
        String end = "</ListBucketResult>";
        String key = "odd/" + "p".repeat(8192 - head.length() - end.length()) + end;
        String body = head + key.substring(4) + "]]></Key><LastModified>2026-12-03T15:33:40.123Z</LastModified>"
                + "<Size>1</Size></Contents><IsTruncated>false</IsTruncated></ListBucketResult>";
        assertThat(bytes(body.substring(0, 8192))).endsWith(bytes(end));
        try (S3Client c = client(200, body, null)) {
            ListingInterceptor.Holder h = new ListingInterceptor.Holder();
            ListObjectsV2Response r = c.listObjectsV2(l -> l.bucket("b")
                    .overrideConfiguration(o -> o.putExecutionAttribute(ListingInterceptor.PAGE, h)));
            assertThat(h.page).isNull();
            assertThat(r.contents()).extracting(o -> o.key()).containsExactly(key);
        }
        assertThat(S3ListingParser.parse(bytes(body)).entries()).extracting(S3ListingParser.Entry::key)
                .containsExactly(key);
    }

    @Test
    void errorBodiesPassThroughToTheSdk() {
        String error = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NoSuchBucket</Code>"
                + "<Message>The specified bucket does not exist</Message><BucketName>b</BucketName></Error>";
        try (S3Client c = client(404, error, null)) {
            ListingInterceptor.Holder h = new ListingInterceptor.Holder();
            assertThatThrownBy(() -> c.listObjectsV2(l -> l.bucket("b")
                    .overrideConfiguration(o -> o.putExecutionAttribute(ListingInterceptor.PAGE, h))))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(404);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The specified bucket does not exist");
                    });
            assertThat(h.page).isNull();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A client whose every request is answered with {@code status} and {@code body}, counted in {@code calls}. */
    private static S3Client client(int status, String body, AtomicInteger calls) {
        SdkHttpClient http = new SdkHttpClient() {
            @Override
            public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
                return new ExecutableHttpRequest() {
                    @Override
                    public HttpExecuteResponse call() {
                        if (calls != null) {
                            calls.incrementAndGet();
                        }
                        return HttpExecuteResponse.builder()
                                .response(SdkHttpResponse.builder().statusCode(status)
                                        .putHeader("Content-Type", "application/xml").build())
                                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes(body))))
                                .build();
                    }

                    @Override
                    public void abort() {
                    }
                };
            }

            @Override
            public void close() {
            }
        };
        ExecutionInterceptor listing = new ListingInterceptor();
        return S3Client.builder().httpClient(http).region(Region.US_EAST_1).endpointOverride(URI.create("http://s3.test"))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(o -> o.addExecutionInterceptor(listing))
                .build();
    }
}
