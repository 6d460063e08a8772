package io.sluice.s3;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads a successful ListObjectsV2 body with {@link S3ListingParser} and hands the SDK an empty result instead,
 * so that the SDK's unmarshalling (most of a large listing's client CPU) has nothing to do. Only for requests that
 * carry a {@link Holder} in {@link #PAGE} (the caller's own, one per request, so concurrent listings on one client
 * do not mix); every other response, and every non-2xx one (errors keep the SDK's parsing and translation), passes
 * through untouched. A body the scanner declines is given to the SDK as it came, and the holder stays empty: the
 * caller then reads the SDK's response.
 */
final class ListingInterceptor implements ExecutionInterceptor {

    /** Where a listing request receives its page. */
    static final ExecutionAttribute<Holder> PAGE = new ExecutionAttribute<>("io.sluice.s3.ListingPage");

    /** A ListObjectsV2 result with no keys and no more pages: what the SDK is left to unmarshal. */
    private static final byte[] EMPTY_RESULT = ("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            + "<IsTruncated>false</IsTruncated></ListBucketResult>").getBytes(StandardCharsets.UTF_8);

    private static final byte[] ROOT_END = "ListBucketResult>".getBytes(StandardCharsets.US_ASCII);

    /** The page of one request; null until its response was read, and when the scanner declined it. */
    static final class Holder {
        // Set on the thread running the SDK's pipeline, read by the caller after the call returns: the same thread
        // for the sync client, but volatile costs nothing here and does not depend on that.
        volatile S3ListingParser.Page page;
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        Holder holder = attributes.getAttribute(PAGE);
        Optional<InputStream> body = context.responseBody();
        if (holder == null || body.isEmpty() || !context.httpResponse().isSuccessful()) {
            return body;
        }
        holder.page = null; // a retried attempt's response replaces an earlier one's
        return Optional.of(new ScanningBody(body.get(), holder));
    }

    /**
     * Reads the real body only when the SDK starts to read, inside its unmarshalling: a connection dropped there
     * is then an I/O failure of the SDK's own, which it retries as any other.
     */
    private static final class ScanningBody extends InputStream {
        private final InputStream raw;
        private final Holder holder;
        private InputStream served;

        ScanningBody(InputStream raw, Holder holder) {
            this.raw = raw;
            this.holder = holder;
        }

        private InputStream served() throws IOException {
            if (served == null) {
                // Up to the root's end tag, not to the end of the stream, as the SDK's own parser reads (it stops
                // after the root element): on RGW, reading on to the chunked body's end cost ~50 ms a page, 5.0-5.4 s
                // instead of 2.4-3.1 s for 100 pages (the last chunk comes apart, likely a delayed ACK). Reads of
                // 8 KiB as the SDK's parser asks: 64 KiB ones were slower too (3.8-4.9 s), measured the same way.
                byte[] buf = new byte[64 * 1024];
                int n = 0;
                while (true) {
                    if (n == buf.length) {
                        buf = Arrays.copyOf(buf, buf.length * 2);
                    }
                    int r = raw.read(buf, n, Math.min(8192, buf.length - n));
                    if (r < 0) {
                        break;
                    }
                    n += r;
                    if (endsWithRootEnd(buf, n)) {
                        break;
                    }
                }
                S3ListingParser.Page page = S3ListingParser.parse(Arrays.copyOf(buf, n));
                if (page != null) {
                    holder.page = page;
                    served = new ByteArrayInputStream(EMPTY_RESULT);
                } else {
                    // Declined (or stopped early at what only looked like the end): the SDK reads it all.
                    served = new SequenceInputStream(new ByteArrayInputStream(buf, 0, n), raw);
                }
            }
            return served;
        }

        /** Whether buf[0, n) ends with {@code ListBucketResult>} after an end tag's {@code /} or a prefix's colon. */
        private static boolean endsWithRootEnd(byte[] buf, int n) {
            int end = n;
            while (end > 0 && (buf[end - 1] == ' ' || buf[end - 1] == '\n' || buf[end - 1] == '\r'
                    || buf[end - 1] == '\t')) {
                end--;
            }
            int start = end - ROOT_END.length;
            if (start < 1 || buf[start - 1] != '/' && buf[start - 1] != ':') {
                return false;
            }
            for (int k = 0; k < ROOT_END.length; k++) {
                if (buf[start + k] != ROOT_END[k]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            return served().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return served().read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            return served == null ? 0 : served.available();
        }

        @Override
        public void close() throws IOException {
            raw.close();
        }
    }
}
