package io.sluice.s3;

import java.net.URI;
import java.util.Optional;

/** The resolved settings of one bucket ({@link S3Options#resolve}). {@link #toString()} shows no secret. */
record S3Settings(String bucket, Optional<String> accessKey, Optional<String> secretKey, Optional<String> sessionToken,
                  Optional<URI> endpoint, Optional<String> region, boolean pathStyle, int attempts,
                  long connectTimeoutMs, int pagingMaximum) {

    /** Where the credentials come from, for messages: never the secret, the access key id shortened. */
    String credentialsSource() {
        if (accessKey.isPresent() && secretKey.isPresent()) {
            String id = accessKey.get();
            String shown = id.length() <= 4 ? "****" : "..." + id.substring(id.length() - 4);
            return "fs.s3a.access.key (" + shown + ") and fs.s3a.secret.key"
                    + (sessionToken.isPresent() ? " with fs.s3a.session.token" : "");
        }
        return "the AWS SDK's default credential chain (environment variables, system properties, profile files, "
                + "container and instance roles)";
    }

    String endpointText() {
        return endpoint.map(URI::toString).orElse("AWS S3");
    }

    @Override
    public String toString() {
        return "S3Settings[bucket=" + bucket + ", endpoint=" + endpointText() + ", region=" + region.orElse("default")
                + ", pathStyle=" + pathStyle + ", credentials from " + credentialsSource() + "]";
    }
}
