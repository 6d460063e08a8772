package io.sluice.files.sink;

/** The formats the file sink writes, with Spark's short names and file extensions. */
enum Format {
    JSON("json", ".json", "JSON"),
    CSV("csv", ".csv", "CSV"),
    TEXT("text", ".txt", "Text");

    final String shortName;
    final String extension;
    /** How Spark names the format in its errors ("The CSV datasource doesn't support ..."). */
    final String displayName;

    Format(String shortName, String extension, String displayName) {
        this.shortName = shortName;
        this.extension = extension;
        this.displayName = displayName;
    }
}
