package niolab.reports;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an experiment's generator produces from its results: values for the {@code {{key}}}
 * placeholders of the report's template (tables, numbers, winner lines) and charts by file name.
 * A template chooses among computed cases with sections: {@code {{#key}}...{{/key}}} is kept when
 * the key's value is neither empty nor "false", {@code {{^key}}...{{/key}}} when it is, and
 * {@code {{#key=case}}...{{/key=case}}} when the value is that case; so the sentences stay in the
 * template and the generator only says which case the run found. A sentence needed in several
 * places is defined once, {@code {{=key}}...{{/=}}}, and quoted as {@code {{key}}}.
 */
public final class Report {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z0-9_.:-]+)}}");
    private static final Pattern SECTION = Pattern.compile("\\{\\{([#^])([a-zA-Z0-9_.:-]+)(?:=([a-zA-Z0-9_.-]+))?}}(.*?)\\{\\{/\\2(?:=\\3)?}}",
            Pattern.DOTALL);
    /** {@code {{=key}}text{{/=}}} and its line's end: text said once, then quoted as {@code {{key}}} wherever it is needed. */
    private static final Pattern DEFINITION = Pattern.compile("\\{\\{=([a-zA-Z0-9_.:-]+)}}(.*?)\\{\\{/=}}\\n?", Pattern.DOTALL);

    final Map<String, String> values = new LinkedHashMap<>();
    final Map<String, String> charts = new LinkedHashMap<>();

    public Report put(String key, String value) {
        values.put(key, value);
        return this;
    }

    /** A case for the template's sections: "true" or "false". */
    public Report put(String key, boolean value) {
        return put(key, Boolean.toString(value));
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
        String cased = sections(template, templateName);
        Matcher d = DEFINITION.matcher(cased);
        StringBuilder rest = new StringBuilder();
        while (d.find()) {
            known.put(d.group(1), fill(d.group(2), known, templateName));
            d.appendReplacement(rest, "");
        }
        d.appendTail(rest);
        return fill(rest.toString(), known, templateName);
    }

    private static String value(Map<String, String> known, String key, String templateName) {
        String v = known.get(key);
        if (v == null) throw new IllegalArgumentException(templateName + ": no value for {{" + key + "}} (known: " + known.keySet() + ")");
        return v;
    }

    private static String fill(String template, Map<String, String> known, String templateName) {
        return PLACEHOLDER.matcher(template).replaceAll(m -> Matcher.quoteReplacement(value(known, m.group(1), templateName)));
    }

    /** Keeps or drops each section by its key's case, innermost sections being plain text to the outer ones. */
    private String sections(String template, String templateName) {
        return SECTION.matcher(template).replaceAll(m -> {
            String v = values.get(m.group(2));
            if (v == null) {
                throw new IllegalArgumentException(templateName + ": no case for {{" + m.group(1) + m.group(2) + "}} (known: " + values.keySet() + ")");
            }
            boolean on = m.group(3) != null ? v.equals(m.group(3)) : !v.isEmpty() && !v.equals("false");
            return Matcher.quoteReplacement(on == m.group(1).equals("#") ? sections(m.group(4), templateName) : "");
        });
    }
}
