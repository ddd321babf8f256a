//! Stack: decoding, decoding into a value, viewing (and taking the view's
//! owned value) and encoding every recursive shape
//! of `schemas/` at the deepest nesting the default limits accept, on
//! threads with a 2 MiB stack (tokio's workers, `std::thread::spawn`); and a
//! value nested 100,000 levels deep is refused by the encoder with an error,
//! not a stack overflow.

use pkt_runtime::Limits;
use pkt_rust_tests::deep::{depth_per_level, Deep, Op, SHAPES};

const STACK: usize = 2 << 20;

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("no panic");
}

#[test]
fn every_recursive_shape_at_the_depth_limit_fits_a_two_mebibyte_stack() {
    let max = Limits::DEFAULT.max_depth;
    for shape in SHAPES {
        let deepest = max - max % depth_per_level(shape);
        for op in [Op::Decode, Op::DecodeInto, Op::Encode, Op::View] {
            let value = Deep::new(shape, deepest);
            let bytes = value.encode_unchecked();
            on_small_stack(move || {
                value
                    .run(op, &bytes)
                    .unwrap_or_else(|e| panic!("{shape} {op:?} at depth {deepest}: {e}"));
            });
            // One level more is refused, by every operation.
            let value = Deep::new(shape, deepest + depth_per_level(shape));
            let bytes = value.encode_unchecked();
            on_small_stack(move || {
                let e = value.run(op, &bytes).expect_err("past the depth limit");
                assert!(e.contains("nest"), "{shape} {op:?}: {e}");
            });
        }
    }
}

#[test]
fn a_hundred_thousand_levels_are_an_encode_error() {
    let small = ["LinkedNode", "TreeNode", "BinaryExpr", "CallExpr"];
    for shape in SHAPES.iter().filter(|s| small.contains(s)) {
        let value = Deep::new(shape, 100_000);
        on_small_stack(move || {
            let e = value.run(Op::Encode, &[]).expect_err("too deep");
            assert_eq!(e, "value nested deeper than 64 levels", "{shape}");
        });
    }
}

/// A frozen struct recursing through a message (`Node` → `NodeBox?` →
/// `Node`, frozen.pkt): the message counts the depth, the struct none.
fn frozen_chain(levels: u32) -> pkt_rust_tests::test::frozen::Node {
    use pkt_rust_tests::test::frozen::{Node, NodeBox};
    let mut node = Node::default();
    for i in 0..levels {
        node = Node {
            name: format!("n{i}"),
            next: Some(Box::new(NodeBox {
                node: Box::new(node),
            })),
        };
    }
    node
}

#[test]
fn frozen_structs_recurse_only_through_messages_which_count_depth() {
    use pkt_runtime::{Decode, Encode};
    use pkt_rust_tests::test::frozen::Node;
    let max = Limits::DEFAULT.max_depth;
    on_small_stack(move || {
        let value = frozen_chain(max);
        let bytes = value.encode_to_vec().expect("at the limit");
        assert_eq!(Node::decode(&bytes).expect("at the limit"), value);
        let mut into = Node::default();
        into.decode_into(&bytes).expect("at the limit");
        assert_eq!(into, value);

        let deeper = frozen_chain(max + 1);
        assert!(deeper.encode_to_vec().is_err(), "the encoder checks depth");
        let bytes = deeper.encode_to_vec_unchecked();
        let e = Node::decode(&bytes).expect_err("past the limit");
        assert!(format!("{e}").contains("nest"), "{e}");
        let e = Node::default()
            .decode_into(&bytes)
            .expect_err("past the limit");
        assert!(format!("{e}").contains("nest"), "{e}");
        // Far past the limit: an error, not a stack overflow.
        // (Dropping it would recurse once per level: leak it instead.)
        let far = frozen_chain(100_000);
        assert!(far.encode_to_vec().is_err());
        std::mem::forget(far);
    });
}

/// Values close to the size bound (64 KiB) as list elements below a small
/// top-level message: each element is decoded where it lies in the list,
/// never built on the stack and moved, so a 2 MiB stack holds any of them
/// (`[u32?; 262144]` and the like are rejected by `pktc check`; at their
/// size they took more than 8 MiB of stack).
#[test]
fn values_at_the_size_bound_below_the_top_level_fit_a_two_mebibyte_stack() {
    use pkt_runtime::{Decode, Encode, View};
    use pkt_rust_tests::test::arrays::{
        ManyNumbers, ManyOptionals, ManyStrings, NumbersAtTheBound, OptionalsAtTheBound,
        StringsAtTheBound,
    };
    fn check<T>(value: T)
    where
        T: Encode + Decode + Default + PartialEq + std::fmt::Debug + pkt_runtime::Viewable,
        T: Send + 'static,
    {
        let bytes = value.encode_to_vec().expect("within the limits");
        on_small_stack(move || {
            let decoded = T::decode(&bytes).expect("decodes");
            assert!(decoded == value);
            let mut into = T::default();
            into.decode_into(&bytes).expect("decodes into");
            assert!(into == value);
            let view =
                pkt_runtime::view::view::<T::View<'_>>(&bytes, Limits::DEFAULT).expect("views");
            assert!(view.into_owned() == value);
        });
    }
    let mut optionals = Box::<OptionalsAtTheBound>::default();
    optionals.slots[7999] = Some(7);
    check(ManyOptionals {
        items: vec![*optionals; 3],
    });
    let mut strings = Box::<StringsAtTheBound>::default();
    strings.names[2599] = "last".into();
    check(ManyStrings {
        items: vec![*strings; 3],
    });
    let mut numbers = Box::<NumbersAtTheBound>::default();
    numbers.values[7999] = 7;
    check(ManyNumbers {
        items: vec![*numbers; 3],
    });
}
