package io.sluice.s3;

import io.sluice.files.fs.ObjectNotifications;

import java.util.Map;

/** S3 event notifications delivered to an SQS queue, for the file source's {@code useNotifications}. */
public final class SqsNotificationsProvider implements ObjectNotifications.Provider {

    @Override
    public ObjectNotifications open(String pathUri, String queueUrl, Map<String, String> conf) {
        S3Uri path = S3Uri.parse(pathUri);
        return SqsNotifications.open(queueUrl, S3Options.resolve(path.bucket(), conf));
    }
}
