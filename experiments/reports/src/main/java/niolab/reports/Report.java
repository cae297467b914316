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
    /** {@code {{?key=case}}text{{/?}}}: the text where the value of key is case, else nothing. */
    private static final Pattern CASE = Pattern.compile("\\{\\{\\?([a-zA-Z0-9_.:-]+)=([a-zA-Z0-9_-]+)}}(.*?)\\{\\{/\\?}}", Pattern.DOTALL);
    /** {@code {{=key}}text{{/=}}} and its line's end: text said once, then quoted as {@code {{key}}} wherever it is needed. */
    private static final Pattern DEFINITION = Pattern.compile("\\{\\{=([a-zA-Z0-9_.:-]+)}}(.*?)\\{\\{/=}}\\n?", Pattern.DOTALL);

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

    /**
     * Fills every placeholder, after keeping the cases that hold and taking out the definitions;
     * an unknown key is an error, so a typo cannot hide a number.
     */
    public String fill(String template, String templateName) {
        Map<String, String> known = new LinkedHashMap<>(values);
        String cased = cases(template, known, templateName);
        Matcher d = DEFINITION.matcher(cased);
        StringBuilder rest = new StringBuilder();
        while (d.find()) {
            known.put(d.group(1), fill(d.group(2), known, templateName));
            d.appendReplacement(rest, "");
        }
        d.appendTail(rest);
        return fill(rest.toString(), known, templateName);
    }

    private static String cases(String template, Map<String, String> known, String templateName) {
        Matcher c = CASE.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (c.find()) c.appendReplacement(sb, Matcher.quoteReplacement(c.group(2).equals(value(known, c.group(1), templateName)) ? c.group(3) : ""));
        c.appendTail(sb);
        return sb.toString();
    }

    private static String value(Map<String, String> known, String key, String templateName) {
        String v = known.get(key);
        if (v == null) throw new IllegalArgumentException(templateName + ": no value for {{" + key + "}} (known: " + known.keySet() + ")");
        return v;
    }

    private static String fill(String template, Map<String, String> known, String templateName) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = value(known, m.group(1), templateName);
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
