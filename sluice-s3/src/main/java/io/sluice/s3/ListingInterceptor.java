package io.sluice.s3;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
                byte[] bytes = raw.readAllBytes();
                S3ListingParser.Page page = S3ListingParser.parse(bytes);
                if (page != null) {
                    holder.page = page;
                    served = new ByteArrayInputStream(EMPTY_RESULT);
                } else {
                    served = new ByteArrayInputStream(bytes);
                }
            }
            return served;
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
