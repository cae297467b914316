package niolab.reports;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an experiment's generator produces from its results: values for the {@code {{key}}}
 * placeholders of the report's template (tables, numbers, winner lines) and charts by file name.
 */
public final class Report {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z0-9_.:-]+)}}");

    final Map<String, String> values = new LinkedHashMap<>();
    final Map<String, String> charts = new LinkedHashMap<>();

    public Report put(String key, String value) {
        values.put(key, value);
        return this;
    }

    /** The values put so far, by key (the course's notes quote them). */
    public Map<String, String> values() {
        return Collections.unmodifiableMap(values);
    }

    /** Adds a chart, written as {@code experiments/charts/FILE}; the template links it. */
    public Report chart(String file, String svg) {
        charts.put(file, svg);
        return this;
    }

    /** Fills every placeholder; an unknown one is an error, so a typo cannot hide a number. */
    public String fill(String template, String templateName) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException(templateName + ": no value for {{" + m.group(1) + "}} (known: " + values.keySet() + ")");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
