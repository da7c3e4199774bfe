// Texts of the legacy contract (spec screens-and-rules.md §5 and §8), kept verbatim.
export const MSG = {
  requiredDialog: 'Preencha os campos obrigatórios',
  requiredConfirm: 'Preencha os campos obrigatórios.',
  emailInvalid: 'E-mail inválido.',
  phoneIncomplete: 'Número incompleto',
  phoneEmpty: 'Número incompleto.',
  keyIncomplete: 'Número incompleto.',
  keyInvalid: 'Número inválido.',
  dateInvalid: 'Data inválida',
  hexInvalid: 'Valor hexadecimal inválido.',
  noStock: 'Item não possui mais estoque!',
  noItemSelected: 'Nenhum item selecionado!',
  duplicateChip: 'Item já adicionado',
  noRecipient: 'Adicione pelo menos um destinatário!',
  noSubject: 'Adicione um assunto!',
  uploadType: 'Permitidos apenas imagens e PDF!',
  whatsappNoNumber: 'Número Inválido ou não encontrado!',
  desktopOnly: 'Tela só disponível no desktop!',
  launcherMissing: 'Sistema de abertura de aplicativos não disponível nessa máquina!',
  newVersion: 'Nova versão disponível atualize o sistema!',
  timeout: 'Tempo de Solicitação Esgotado',
  groupItem: 'Esse item já foi lançado, deseja agrupar ?',
  pickerLoadError: 'Erro ao carregar produtos',
  tableEmpty: 'Nenhum item encontrado.',
  menuEmpty: 'Nenhuma página encontrada',
  // §8: the text of a failed upload (the server's own message is shown when it sends one).
  uploadFailed: 'Erro no upload',
  loading: 'Carregando',
  // Not in the spec's table: the legacy screens never showed one; chosen here.
  cpfCnpjInvalid: 'CPF/CNPJ inválido.',
  // Not in the spec: a file (a receipt PDF) the server could not give; chosen here.
  fileFailed: 'Não foi possível obter o arquivo.',
  // §7.2: the fallback of a sending call (and of any REST call whose answer has no msg).
  requestFailed: 'Ocorreu um erro durante o processo.',
  // §7.2: a WhatsApp message queued (the server's own text when it sends one).
  whatsappQueued: 'Whatsapp Agendado com sucesso!',
  // Not in the spec: an e-mail queued, as services/messaging words it (its text shows when sent).
  emailQueued: 'E-mail agendado com sucesso!',
} as const;

export const required = (label: string) => `${label} é obrigatório!`;
export const maxMessage = (max: string | number, prefix = '') => `Valor Máximo permitido para o campo: ${max}${prefix}`;
// The trailing space is part of the legacy text.
export const minMessage = (label: string, min: string | number) => `O campo ${label} deve ser maior ou igual a ${min} `;
export const minLengthMessage = (label: string, min: string | number) =>
  `O campo ${label} deve ter no minimo ${min} caracteres.`;
export const cellMaxMessage = (max: string | number) => `O valor deve ser menor do que ${max}`;
export const cellMinMessage = (min: string | number) => `O valor deve ser maior do que ${min}`;
