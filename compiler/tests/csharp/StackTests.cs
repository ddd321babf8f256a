// Deep values of the recursive shapes (TreeNode, LinkedNode, Expr, DeepBig)
// on a thread with a 256 KiB stack: decoding and encoding at the deepest
// nesting the limits allow succeed, deeper values and inputs fail with the
// library's exception, and nothing overflows the stack.
using System;
using System.Collections.Generic;
using System.Threading;
using Pkt;
using Test.Amplify;
using Test.Everything;

namespace PktTests
{
    public static class StackTests
    {
        private const int SmallStack = 256 * 1024;
        private const int Max = PktLimits.DefaultMaxDepth;

        private static void OnSmallStack(Action test)
        {
            Exception failure = null;
            var t = new Thread(() =>
            {
                try { test(); }
                catch (Exception e) { failure = e; }
            }, SmallStack);
            t.Start();
            t.Join();
            if (failure != null) throw new AssertionException("on a " + SmallStack + "-byte stack: " + failure);
        }

        private static LinkedNode Chain(int levels)
        {
            LinkedNode head = null;
            for (int i = 0; i < levels; i++) head = new LinkedNode { Value = i, Next = head };
            return head;
        }

        private static TreeNode Tree(int levels)
        {
            var node = new TreeNode { Value = 0 };
            for (int i = 1; i < levels; i++)
            {
                var parent = new TreeNode { Value = i };
                parent.Children.Add(node);
                node = parent;
            }
            return node;
        }

        /// <summary>A Binary wraps a BinaryExpr: two levels each, plus the innermost Literal.</summary>
        private static Expr Nested(int binaries)
        {
            Expr e = new Expr.Literal(7);
            for (int i = 0; i < binaries; i++) e = new Expr.Binary(new BinaryExpr { Lhs = e });
            return e;
        }

        private static DeepBig Deep(int levels, bool arrays)
        {
            DeepBig d = null;
            for (int i = 0; i < levels; i++)
            {
                var parent = new DeepBig { Child = d };
                if (arrays) parent.Arr[0] = (ulong)i;
                else parent.Arr = null;
                d = parent;
            }
            return d;
        }

        private static void EncodeFails(Func<int> encode, string what)
        {
            try
            {
                encode();
            }
            catch (PktEncodeException)
            {
                return;
            }
            throw new AssertionException(what + ": expected PktEncodeException");
        }

        private static void Refused(Func<byte[]> toArray, Func<int> size, Func<int> encodeSpan, string what)
        {
            EncodeFails(() => toArray().Length, what + " ToArray");
            EncodeFails(size, what + " GetEncodedSize");
            EncodeFails(encodeSpan, what + " Encode(Span)");
        }

        public static void DeepValuesOnASmallStack()
        {
            OnSmallStack(() =>
            {
                var chain = Chain(Max).ToArray();
                var back = LinkedNode.Decode(chain);
                int levels = 0;
                for (var n = back; n != null; n = n.Next) levels++;
                Check.Equal(Max, levels, "LinkedNode levels");
                back.DecodeInto(chain);

                var tree = Tree(Max).ToArray();
                var t = TreeNode.Decode(tree);
                t.DecodeInto(tree);
                Check.Bytes(tree, t.ToArray(), "TreeNode round trip");

                // 31 Binary frames hold 62 levels, plus the Literal.
                var expr = Nested((Max - 1) / 2).ToArray();
                Check.Bytes(expr, Expr.Decode(expr).ToArray(), "Expr round trip");

                // 64 levels of [u64; 4096]: 2 MB of input, within the budget.
                var deep = Deep(Max, true).ToArray();
                var d = DeepBig.Decode(deep);
                Check.Equal(63UL, d.Arr[0], "DeepBig top");
                d.DecodeInto(deep);
                Console.WriteLine("stack: LinkedNode, TreeNode, DeepBig at " + Max + " levels and Expr at " + (Max - 1) + " decode and encode on a " + SmallStack + "-byte stack");

                // 100,000 nested bodies claimed by the input: rejected at the limit.
                const int hostileLevels = 100000;
                var hostile = new byte[9 * hostileLevels];
                for (int i = 0; i < hostileLevels; i++)
                {
                    BitConverter.GetBytes((uint)(hostile.Length - 9 * i - 4)).CopyTo(hostile, 9 * i);
                    hostile[9 * i + 8] = 1;
                }
                var e = Check.Fails(PktDecodeReason.DepthExceeded, () => LinkedNode.Decode(hostile), "100,000 nested LinkedNode bodies");
                Check.Equal((long)(9 * Max), e.Offset, "at the 65th body");
            });
        }

        public static void EncodersRefuseWhatDecodersReject()
        {
            OnSmallStack(() =>
            {
                var buffer = new byte[1 << 16];
                foreach (int levels in new[] { Max + 1, 100000 })
                {
                    var chain = Chain(levels);
                    Refused(() => chain.ToArray(), () => chain.GetEncodedSize(), () => chain.Encode(buffer), levels + " LinkedNode");
                    var tree = Tree(levels);
                    Refused(() => tree.ToArray(), () => tree.GetEncodedSize(), () => tree.Encode(buffer), levels + " TreeNode");
                    // Each new DeepBig allocates its 32 KiB array first: fewer levels.
                    var deep = Deep(Math.Min(levels, 2000), false);
                    Refused(() => deep.ToArray(), () => deep.GetEncodedSize(), () => deep.Encode(new byte[1 << 24]), levels + " DeepBig");
                }
                var expr = Nested(Max / 2);
                Refused(() => expr.ToArray(), () => expr.GetEncodedSize(), () => expr.Encode(buffer), "65-level Expr");
                var deepExpr = Nested(100000);
                Refused(() => deepExpr.ToArray(), () => deepExpr.GetEncodedSize(), () => deepExpr.Encode(buffer), "200,001-level Expr");
            });

            // @max is checked by every encoder.
            var limited = new Limited { S = "four" };
            EncodeFails(() => limited.ToArray().Length, "@max(3) string");
            EncodeFails(() => limited.Encode(new byte[64]), "@max(3) string into a span");

            // Sizes past int.MaxValue: an exception naming the type, not a wrapped size.
            var big = new Test.Amplify.Big { A = null };
            var bigs = new Bigs();
            for (int i = 0; i < 70000; i++) bigs.Items.Add(big);
            try
            {
                bigs.GetEncodedSize();
                throw new AssertionException("70,000 × 32,772 B fits an int?");
            }
            catch (PktEncodeException e)
            {
                Check.True(e.Message.Contains("`test.amplify.Bigs`"), "names the type: " + e.Message);
            }
            EncodeFails(() => bigs.ToArray().Length, "ToArray over int.MaxValue");
        }
    }
}
