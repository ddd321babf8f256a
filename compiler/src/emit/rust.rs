pub fn generate(_ir: &crate::ir::Ir, _o: &super::GenOptions) -> Vec<super::GeneratedFile> { Vec::new() }
