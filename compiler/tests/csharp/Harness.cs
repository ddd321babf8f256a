// Minimal test harness for the generated C# code: no test framework, so the
// suite runs anywhere Mono or .NET runs. Each test is a static method; a
// failure prints the test name and message and makes the process exit 1.
using System;
using System.Collections.Generic;
using System.Text;

namespace PktTests
{
    public sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    public static class Check
    {
        public static void True(bool condition, string what)
        {
            if (!condition) throw new AssertionException(what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionException(what + ": expected " + expected + ", got " + actual);
        }

        public static void Bytes(byte[] expected, ReadOnlySpan<byte> actual, string what)
        {
            if (!actual.SequenceEqual(expected))
                throw new AssertionException(what + ":\n  expected " + Hex.Of(expected) + "\n  actual   " + Hex.Of(actual));
        }

        /// <summary>Runs a decode that must fail with a PktDecodeException of the given reason.</summary>
        public static Pkt.PktDecodeException Fails(Pkt.PktDecodeReason reason, Action decode, string what)
        {
            try
            {
                decode();
            }
            catch (Pkt.PktDecodeException e)
            {
                if (e.Reason != reason)
                    throw new AssertionException(what + ": expected " + reason + ", got " + e.Reason + " (" + e.Message + ")");
                return e;
            }
            throw new AssertionException(what + ": expected " + reason + ", but decoding succeeded");
        }

        /// <summary>Runs a decode on hostile input: success or PktDecodeException only.</summary>
        public static bool DecodesOrRejects(Action decode, string what)
        {
            try
            {
                decode();
                return true;
            }
            catch (Pkt.PktDecodeException)
            {
                return false;
            }
            catch (Exception e)
            {
                throw new AssertionException(what + ": " + e.GetType().Name + " escaped the decoder: " + e.Message);
            }
        }
    }

    public static class Hex
    {
        public static string Of(ReadOnlySpan<byte> b)
        {
            var sb = new StringBuilder();
            for (int i = 0; i < b.Length; i++)
            {
                if (i > 0) sb.Append(' ');
                sb.Append(b[i].ToString("x2"));
            }
            return sb.ToString();
        }

        public static byte[] Parse(string s)
        {
            var parts = s.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            var result = new byte[parts.Length];
            for (int i = 0; i < parts.Length; i++) result[i] = Convert.ToByte(parts[i], 16);
            return result;
        }
    }

    /// <summary>A reusable IBufferWriter over one array (ArrayBufferWriter is missing on some Mono versions).</summary>
    public sealed class ReusableBufferWriter : System.Buffers.IBufferWriter<byte>
    {
        private readonly byte[] buffer;
        public int Written;
        public int GetSpanCalls;
        public int AdvanceCalls;

        public ReusableBufferWriter(int capacity) { buffer = new byte[capacity]; }

        public void Reset()
        {
            Written = 0;
            GetSpanCalls = 0;
            AdvanceCalls = 0;
        }

        public ReadOnlySpan<byte> WrittenSpan { get { return new ReadOnlySpan<byte>(buffer, 0, Written); } }

        public void Advance(int count)
        {
            AdvanceCalls++;
            Written += count;
        }

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            GetSpanCalls++;
            return new Memory<byte>(buffer, Written, buffer.Length - Written);
        }

        public Span<byte> GetSpan(int sizeHint = 0)
        {
            GetSpanCalls++;
            if (sizeHint > buffer.Length - Written) throw new InvalidOperationException("test writer full");
            return new Span<byte>(buffer, Written, buffer.Length - Written);
        }
    }

    public static class TestMain
    {
        private static int failures;
        private static int passed;

        private static void Run(string name, Action test)
        {
            try
            {
                test();
                passed++;
                Console.WriteLine("ok   " + name);
            }
            catch (Exception e)
            {
                failures++;
                Console.WriteLine("FAIL " + name + ": " + e);
            }
        }

        public static int Main()
        {
            // Must run first: they measure the first use of types in this process.
            Run("alloc.first_calls", AllocTests.FirstCalls);

            Run("golden.transform_packet", GoldenTests.TransformPacket);
            Run("golden.small", GoldenTests.Small);
            Run("golden.union_frames", GoldenTests.UnionFrames);
            Run("golden.optionals", GoldenTests.Optionals);
            Run("golden.map_sorted", GoldenTests.MapSorted);
            Run("golden.string_key_order", GoldenTests.StringKeyOrder);
            Run("golden.lone_surrogate_keys", GoldenTests.LoneSurrogateKeys);
            Run("golden.fixed_struct_layout", GoldenTests.FixedStructLayout);
            Run("golden.null_fields_encode_as_defaults", GoldenTests.NullFieldsEncodeAsDefaults);
            Run("golden.encode_errors", GoldenTests.EncodeErrors);

            Run("roundtrip.everything", RoundTripTests.Everything);
            Run("roundtrip.everything_defaults", RoundTripTests.EverythingDefaults);
            Run("roundtrip.every_command_variant", RoundTripTests.EveryCommandVariant);
            Run("roundtrip.unknown_union_tag", RoundTripTests.UnknownUnionTag);
            Run("roundtrip.unknown_enum_value", RoundTripTests.UnknownEnumValue);
            Run("roundtrip.recursive_types", RoundTripTests.RecursiveTypes);
            Run("roundtrip.game_packets", RoundTripTests.GamePackets);
            Run("roundtrip.missing_fields_take_defaults", RoundTripTests.MissingFieldsTakeDefaults);
            Run("roundtrip.unknown_fields_skipped_or_preserved", RoundTripTests.UnknownFields);
            Run("roundtrip.try_decode_streams", RoundTripTests.TryDecodeStreams);
            Run("decode_into.lists", DecodeIntoTests.Lists);
            Run("decode_into.nested_union_map_bytes", DecodeIntoTests.NestedUnionMapBytes);
            Run("array_api.encode_at_offset", ArrayApiTests.EncodeAtOffset);
            Run("array_api.encode_range_errors", ArrayApiTests.EncodeRangeErrors);
            Run("array_api.decode_at_offset", ArrayApiTests.DecodeAtOffset);
            Run("array_api.decode_errors_agree", ArrayApiTests.DecodeErrorsAgree);
            Run("lists.both_paths", ListTests.BothPaths);
            Run("lists.decode_into_replaces", ListTests.DecodeIntoReplaces);
            Run("lists.invalid_bool", ListTests.InvalidBool);
            Run("lists.count_beyond_input", ListTests.CountBeyondInput);
            Run("lists.concurrent", ListTests.Concurrent);
            Run("limits.at_every_limit", LimitTests.AtEveryLimit);
            Run("limits.one_past_a_part_is_rejected_on_every_path", LimitTests.OnePastAPartIsRejectedOnEveryPath);
            Run("limits.encoders_refuse_one_past_a_part", LimitTests.EncodersRefuseOnePastAPart);
            Run("frozen.golden", FrozenTests.Golden);
            Run("frozen.errors", FrozenTests.Errors);
            Run("frozen.decode_into_reuse", FrozenTests.DecodeIntoReuse);
            Run("quantize.widths", QuantizeTests.Widths);
            Run("quantize.edges", QuantizeTests.Edges);
            Run("quantize.ties", QuantizeTests.Ties);
            Run("quantize.refused", QuantizeTests.Refused);
            Run("quantize.negative_zero", QuantizeTests.NegativeZero);
            Run("quantize.past_steps", QuantizeTests.PastSteps);
            Run("quantize.largest_steps", QuantizeTests.LargestSteps);
            Run("quantize.decode_then_encode", QuantizeTests.DecodeThenEncode);

            Run("hostile.truncated_everywhere", HostileTests.TruncatedEverywhere);
            Run("hostile.mutated_bytes", HostileTests.MutatedBytes);
            Run("hostile.huge_prefixes", HostileTests.HugePrefixes);
            Run("hostile.specific_errors", HostileTests.SpecificErrors);
            Run("hostile.depth_limit", HostileTests.DepthLimit);
            Run("hostile.limits", HostileTests.Limits);
            Run("delta.every_section_in_one_apply", DeltaTests.EverySectionInOneApply);
            Run("amplify.budget_errors", AmplifyTests.BudgetErrors);
            Run("amplify.budget_bounds_allocation", AmplifyTests.BudgetBoundsAllocation);
            Run("amplify.maps_decode_in_n_log_n", AmplifyTests.MapsDecodeInNLogN);
            Run("arrays.budget_bounds_allocation", ArrayTests.BudgetBoundsAllocation);
            Run("arrays.long_array_defaults", ArrayTests.LongArrayDefaults);
            Run("stack.deep_values_on_a_small_stack", StackTests.DeepValuesOnASmallStack);
            Run("stack.encoders_refuse_what_decoders_reject", StackTests.EncodersRefuseWhatDecodersReject);

            Run("frame.byte_at_a_time", FrameTests.ByteAtATime);
            Run("frame.split_everywhere", FrameTests.SplitEverywhere);
            Run("frame.oversized_prefix", FrameTests.OversizedPrefix);
            Run("frame.bad_frame_keeps_sync", FrameTests.BadFrameKeepsSync);
            Run("frame.empty_frame_flood", FrameTests.EmptyFrameFlood);
            Run("frame.garbage_between_frames", FrameTests.GarbageBetweenFrames);

            Run("value.decoded_equals_original", ValueTests.DecodedEqualsOriginal);
            Run("value.floats_compare_as_their_bits", ValueTests.FloatsCompareAsTheirBits);
            Run("value.nulls_equal_their_defaults", ValueTests.NullsEqualTheirDefaults);
            Run("value.equal_exactly_when_the_bytes_are", ValueTests.EqualExactlyWhenTheBytesAre);
            Run("value.text_is_readable", ValueTests.TextIsReadable);
            Run("value.text_is_bounded", ValueTests.TextIsBounded);

            Run("alloc.steady_state", AllocTests.SteadyState);
            Run("alloc.equality", ValueTests.EqualityAllocatesNothing);
            Run("alloc.frozen_structs", FrozenTests.Allocations);

            Console.WriteLine(passed + " passed, " + failures + " failed");
            if (failures > 0) return 1;
            Console.WriteLine("ALL PASSED");
            return 0;
        }
    }
}
