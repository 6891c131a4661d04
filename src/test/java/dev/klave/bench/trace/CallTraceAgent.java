package dev.klave.bench.trace;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.ClassElement;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * A Java agent that makes every method of Klave's main code (classes loaded from
 * {@code target/classes} or the jar, never the test kit's) call {@link Trace#enter} first, with the
 * JDK's own class-file API: so a benchmark can count which classes and packages one request
 * crosses, and how often a method runs for it. {@code -javaagent:<jar>} on the measuring JVM only.
 */
public final class CallTraceAgent {
    private static final ClassDesc TRACE = ClassDesc.of(Trace.class.getName());
    private static final MethodTypeDesc ENTER = MethodTypeDesc.ofDescriptor("(Ljava/lang/String;)V");

    private CallTraceAgent() {}

    public static void premain(String arguments, Instrumentation instrumentation) {
        instrumentation.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                    byte[] bytes) {
                if (name == null || !name.startsWith("dev/klave/") || !mainCode(domain)) {
                    return null;
                }
                try {
                    return instrumented(loader, name, bytes);
                } catch (RuntimeException e) {
                    System.err.println("call trace: " + name + " left as it is: " + e);
                    return null;
                }
            }
        });
    }

    private static boolean mainCode(ProtectionDomain domain) {
        if (domain == null || domain.getCodeSource() == null || domain.getCodeSource().getLocation() == null) {
            return false;
        }
        String where = domain.getCodeSource().getLocation().toString();
        return where.endsWith("/classes/") || where.endsWith("klave.jar");
    }

    private static byte[] instrumented(ClassLoader loader, String name, byte[] bytes) {
        // The stack maps are computed again from the class files themselves, never by loading a
        // class: loading the one being defined would define it twice.
        ClassFile files = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                ClassHierarchyResolver.ofResourceParsing(loader).orElse(ClassHierarchyResolver.defaultResolver())));
        ClassModel model = files.parse(bytes);
        String owner = name.substring(name.lastIndexOf('/') + 1).replace('$', '.');
        String pkg = name.substring(0, name.lastIndexOf('/')).replace('/', '.');
        ClassTransform transform = (builder, element) -> {
            if (element instanceof MethodModel method && method.code().isPresent()) {
                String label = pkg + " " + owner + "#" + method.methodName().stringValue();
                builder.transformMethod(method, MethodTransform.transformingCode(new CodeTransform() {
                    @Override
                    public void accept(CodeBuilder code, CodeElement codeElement) {
                        code.with(codeElement);
                    }

                    @Override
                    public void atStart(CodeBuilder code) {
                        code.ldc(label).invokestatic(TRACE, "enter", ENTER);
                    }
                }));
            } else {
                builder.with((ClassElement) element);
            }
        };
        return files.transformClass(model, transform);
    }
}
