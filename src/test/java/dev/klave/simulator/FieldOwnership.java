package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Server-side apply (KEP 555) and the bookkeeping of ordinary writes, on {@link ManagedFields}:
 * an apply merges the applied configuration into the live object, fails on fields another manager
 * set to a different value unless forced, and removes fields the manager applied before but no
 * longer does; an update makes its manager own the fields it changed.
 */
final class FieldOwnership {
    private FieldOwnership() {
    }

    static ObjectNode apply(ResourceType type, String name, Optional<ObjectNode> live, ObjectNode applied,
            String manager, boolean force, Instant now) {
        Set<List<String>> appliedPaths = ManagedFields.leafPaths(applied);
        if (live.isEmpty()) {
            ObjectNode created = applied.deepCopy();
            ManagedFields.write(created, List.of(new ManagedFields.Entry(manager, "Apply", type.apiVersion(), appliedPaths)), now);
            return created;
        }
        ObjectNode current = live.get();
        List<ManagedFields.Entry> entries = new ArrayList<>(ManagedFields.read(current));
        List<String> conflicts = new ArrayList<>();
        String conflictManager = "";
        for (int i = 0; i < entries.size(); i++) {
            ManagedFields.Entry entry = entries.get(i);
            if (entry.manager().equals(manager) && entry.operation().equals("Apply")) {
                continue;
            }
            Set<List<String>> kept = new LinkedHashSet<>(entry.paths());
            for (List<String> path : appliedPaths) {
                if (!entry.paths().contains(path)) {
                    continue;
                }
                boolean differs = !ManagedFields.valueAt(current, path).equals(ManagedFields.valueAt(applied, path));
                if (differs && !force) {
                    conflicts.add(ManagedFields.describe(path));
                    conflictManager = "\"" + entry.manager() + "\" using " + entry.apiVersion();
                } else if (differs) {
                    kept.remove(path);
                }
            }
            entries.set(i, new ManagedFields.Entry(entry.manager(), entry.operation(), entry.apiVersion(), kept));
        }
        if (!conflicts.isEmpty()) {
            throw ApiException.applyConflict(type.group(), type.plural(), name, conflictMessage(conflictManager, conflicts));
        }
        ObjectNode merged = (ObjectNode) Patches.strategicMergePatch(current, applied);
        Set<List<String>> previouslyApplied = entries.stream()
                .filter(entry -> entry.manager().equals(manager) && entry.operation().equals("Apply"))
                .flatMap(entry -> entry.paths().stream()).collect(Collectors.toSet());
        for (List<String> path : previouslyApplied) {
            boolean ownedByOthers = entries.stream().anyMatch(entry -> !(entry.manager().equals(manager)
                    && entry.operation().equals("Apply")) && entry.paths().contains(path));
            if (!appliedPaths.contains(path) && !ownedByOthers) {
                ManagedFields.removeAt(merged, path);
            }
        }
        entries.removeIf(entry -> entry.manager().equals(manager) && entry.operation().equals("Apply"));
        entries.add(new ManagedFields.Entry(manager, "Apply", type.apiVersion(), appliedPaths));
        ManagedFields.write(merged, entries, now);
        return merged;
    }

    /** After a create, replace or patch: the writer owns what it changed; nobody owns what is gone. */
    static void recordUpdate(ResourceType type, Optional<ObjectNode> before, ObjectNode after, String manager, Instant now) {
        Set<List<String>> afterPaths = ManagedFields.leafPaths(after);
        List<ManagedFields.Entry> entries = new ArrayList<>(before.map(ManagedFields::read).orElse(List.of()));
        Set<List<String>> changed = new LinkedHashSet<>();
        for (List<String> path : afterPaths) {
            Optional<JsonNode> old = before.flatMap(object -> ManagedFields.valueAt(object, path));
            if (!old.equals(ManagedFields.valueAt(after, path))) {
                changed.add(path);
            }
        }
        List<ManagedFields.Entry> updated = new ArrayList<>();
        Set<List<String>> mine = new LinkedHashSet<>(changed);
        for (ManagedFields.Entry entry : entries) {
            Set<List<String>> kept = new LinkedHashSet<>(entry.paths());
            kept.retainAll(afterPaths);
            if (entry.manager().equals(manager) && entry.operation().equals("Update")) {
                mine.addAll(kept);
                continue;
            }
            kept.removeAll(changed);
            updated.add(new ManagedFields.Entry(entry.manager(), entry.operation(), entry.apiVersion(), kept));
        }
        updated.add(new ManagedFields.Entry(manager, "Update", type.apiVersion(), mine));
        ManagedFields.write(after, updated, now);
    }

    private static String conflictMessage(String manager, List<String> fields) {
        if (fields.size() == 1) {
            return "Apply failed with 1 conflict: conflict with " + manager + ": " + fields.getFirst();
        }
        StringBuilder message = new StringBuilder("Apply failed with " + fields.size() + " conflicts: conflicts with "
                + manager + ":");
        fields.forEach(field -> message.append("\n- ").append(field));
        return message.toString();
    }
}
