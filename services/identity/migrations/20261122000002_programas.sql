-- Programas (itens de menu) do ERP: um programa por tela aberta pelo menu lateral.
-- Árvore do menu: prog_nivel1 (grupo) > prog_nivel2 (subgrupo, NULL = direto no grupo)
-- > prog_nivel3 (item). prog_dir_web é a rota da tela; programas só desktop têm
-- prog_dir_web NULL e prog_exe preenchido (abertos pelo lançador desktop).
-- prog_id segue a ordem do menu, em faixas por grupo (100 Cadastros, 200 Vendas,
-- 300 Serviços, 400 Compras, 500 Estoque, 600 Financeiro, 700 Fiscal,
-- 800 Relatórios, 900 Help Desk, 1000 Comunicação, 1100 Administração);
-- prog_ordem é a posição dentro do nó pai. Rotas: especificação §2.2-§2.4.

INSERT INTO programas
  (prog_id, prog_nome, prog_descricao, prog_dir_web, prog_exe, prog_img_web, prog_nivel1, prog_nivel2, prog_nivel3, prog_ordem)
VALUES
  (101,  'clientes',                        'Clientes',                                '/clientes',                        NULL,            'mdi-account-group',                  'Cadastros',     'Clientes e Fornecedores', 'Clientes',                                1),
  (102,  'fornecedores',                    'Fornecedores',                            '/fornecedores',                    NULL,            'mdi-truck-delivery',                 'Cadastros',     'Clientes e Fornecedores', 'Fornecedores',                            2),

  (111,  'colaboradores',                   'Colaboradores',                           '/colaboradores',                   NULL,            'mdi-account-hard-hat',               'Cadastros',     'Colaboradores',           'Colaboradores',                           1),
  (112,  'funcoes',                         'Funções',                                 '/funcoes',                         NULL,            'mdi-badge-account-horizontal',       'Cadastros',     'Colaboradores',           'Funções',                                 2),

  (121,  'produtos',                        'Produtos',                                '/produtos',                        NULL,            'mdi-package-variant-closed',         'Cadastros',     'Produtos',                'Produtos',                                1),
  (122,  'grupos',                          'Grupos de Produtos',                      '/grupos',                          NULL,            'mdi-shape',                          'Cadastros',     'Produtos',                'Grupos de Produtos',                      2),
  (123,  'subgrupos',                       'Subgrupos de Produtos',                   '/subgrupos',                       NULL,            'mdi-shape-outline',                  'Cadastros',     'Produtos',                'Subgrupos de Produtos',                   3),
  (124,  'marcaprodutos',                   'Marcas de Produtos',                      '/marcaprodutos',                   NULL,            'mdi-tag-multiple',                   'Cadastros',     'Produtos',                'Marcas de Produtos',                      4),
  (125,  'unidades',                        'Unidades de Medida',                      '/unidades',                        NULL,            'mdi-scale-balance',                  'Cadastros',     'Produtos',                'Unidades de Medida',                      5),
  (126,  'tamanhos',                        'Tamanhos',                                '/tamanhos',                        NULL,            'mdi-ruler',                          'Cadastros',     'Produtos',                'Tamanhos',                                6),
  (127,  'cores',                           'Cores',                                   '/cores',                           NULL,            'mdi-palette',                        'Cadastros',     'Produtos',                'Cores',                                   7),

  (141,  'servicos',                        'Serviços',                                '/servicos',                        NULL,            'mdi-wrench',                         'Cadastros',     'Serviços',                'Serviços',                                1),
  (142,  'gruposservico',                   'Grupos de Serviços',                      '/gruposservico',                   NULL,            'mdi-folder-wrench',                  'Cadastros',     'Serviços',                'Grupos de Serviços',                      2),
  (143,  'tiposservico',                    'Tipos de Serviço',                        '/tiposservico',                    NULL,            'mdi-format-list-bulleted-type',      'Cadastros',     'Serviços',                'Tipos de Serviço',                        3),
  (144,  'setoresservico',                  'Setores de Serviço',                      '/setoresservico',                  NULL,            'mdi-account-wrench',                 'Cadastros',     'Serviços',                'Setores de Serviço',                      4),

  (151,  'veiculos',                        'Veículos',                                '/veiculos',                        NULL,            'mdi-car',                            'Cadastros',     'Veículos',                'Veículos',                                1),
  (152,  'marcaveiculo',                    'Marcas de Veículos',                      '/marcaveiculo',                    NULL,            'mdi-car-info',                       'Cadastros',     'Veículos',                'Marcas de Veículos',                      2),
  (153,  'modeloveiculo',                   'Modelos de Veículos',                     '/modeloveiculo',                   NULL,            'mdi-car-side',                       'Cadastros',     'Veículos',                'Modelos de Veículos',                     3),

  (161,  'equipamento',                     'Equipamentos',                            '/equipamento',                     NULL,            'mdi-tools',                          'Cadastros',     'Equipamentos',            'Equipamentos',                            1),
  (162,  'tipoequipamento',                 'Tipos de Equipamento',                    '/tipoequipamento',                 NULL,            'mdi-format-list-bulleted-square',    'Cadastros',     'Equipamentos',            'Tipos de Equipamento',                    2),
  (163,  'marcaequipamento',                'Marcas de Equipamentos',                  '/marcaequipamento',                NULL,            'mdi-tag',                            'Cadastros',     'Equipamentos',            'Marcas de Equipamentos',                  3),
  (164,  'modeloequipamento',               'Modelos de Equipamentos',                 '/modeloequipamento',               NULL,            'mdi-cog-box',                        'Cadastros',     'Equipamentos',            'Modelos de Equipamentos',                 4),

  (171,  'paises',                          'Países',                                  '/paises',                          NULL,            'mdi-earth',                          'Cadastros',     'Localização',             'Países',                                  1),
  (172,  'estados',                         'Estados',                                 '/estados',                         NULL,            'mdi-map',                            'Cadastros',     'Localização',             'Estados',                                 2),
  (173,  'cidades',                         'Cidades',                                 '/cidades',                         NULL,            'mdi-city',                           'Cadastros',     'Localização',             'Cidades',                                 3),

  (181,  'cadmotivos',                      'Motivos',                                 '/cadmotivos',                      NULL,            'mdi-comment-question-outline',       'Cadastros',     'Tabelas Gerais',          'Motivos',                                 1),
  (182,  'observacoes',                     'Observações',                             '/observacoes',                     NULL,            'mdi-note-text-outline',              'Cadastros',     'Tabelas Gerais',          'Observações',                             2),

  (201,  'orcamentos',                      'Orçamentos',                              '/orcamentos',                      NULL,            'mdi-file-document-edit-outline',     'Vendas',        NULL,                      'Orçamentos',                              1),
  (202,  'pedidos',                         'Pedidos de Venda',                        '/pedidos',                         NULL,            'mdi-cart',                           'Vendas',        NULL,                      'Pedidos de Venda',                        2),
  (203,  'condicional',                     'Vendas Condicionais',                     '/condicional',                     NULL,            'mdi-cart-arrow-right',               'Vendas',        NULL,                      'Vendas Condicionais',                     3),
  (204,  'pdv',                             'PDV - Frente de Caixa',                   NULL,                               'BSPDV.exe',     'mdi-point-of-sale',                  'Vendas',        NULL,                      'PDV - Frente de Caixa',                   4),

  (301,  'ordensdeservico',                 'Ordens de Serviço',                       '/ordensdeservico',                 NULL,            'mdi-clipboard-text',                 'Serviços',      'Ordens de Serviço',       'Ordens de Serviço',                       1),
  (302,  'ordemservico',                    'Ordem de Serviço Oficina',                '/ordemservico',                    NULL,            'mdi-hammer-wrench',                  'Serviços',      'Ordens de Serviço',       'Ordem de Serviço Oficina',                2),
  (303,  'ordemveiculo',                    'Ordem de Serviço de Veículos',            '/ordemveiculo',                    NULL,            'mdi-car-wrench',                     'Serviços',      'Ordens de Serviço',       'Ordem de Serviço de Veículos',            3),
  (304,  'controleservicos',                'Controle de Serviços',                    '/controleservicos',                NULL,            'mdi-clipboard-check-outline',        'Serviços',      'Ordens de Serviço',       'Controle de Serviços',                    4),

  (311,  'agendaservico',                   'Agenda de Serviços',                      '/agendaservico',                   NULL,            'mdi-calendar-clock',                 'Serviços',      'Agenda e Reservas',       'Agenda de Serviços',                      1),
  (312,  'reservaveiculo',                  'Reserva de Veículos',                     '/reservaveiculo',                  NULL,            'mdi-car-key',                        'Serviços',      'Agenda e Reservas',       'Reserva de Veículos',                     2),
  (313,  'reservaveiculo/financeiro',       'Projeção Financeira de Reservas',         '/reservaveiculo/financeiro',       NULL,            'mdi-chart-timeline-variant',         'Serviços',      'Agenda e Reservas',       'Projeção Financeira de Reservas',         3),

  (401,  'compras',                         'Compras',                                 '/compras',                         NULL,            'mdi-cart-arrow-down',                'Compras',       NULL,                      'Compras',                                 1),
  (402,  'manifestonfe',                    'Manifesto de NF-e',                       '/manifestonfe',                    NULL,            'mdi-file-download-outline',          'Compras',       NULL,                      'Manifesto de NF-e',                       2),

  (501,  'consultaprodutos',                'Histórico de Estoque',                    '/consultaprodutos',                NULL,            'mdi-text-box-search-outline',        'Estoque',       'Movimentação',            'Histórico de Estoque',                    1),
  (502,  'saldoestoque',                    'Entradas e Saídas de Estoque',            '/saldoestoque',                    NULL,            'mdi-swap-vertical',                  'Estoque',       'Movimentação',            'Entradas e Saídas de Estoque',            2),
  (503,  'correcoesestoque',                'Correções de Estoque',                    '/correcoesestoque',                NULL,            'mdi-archive-edit',                   'Estoque',       'Movimentação',            'Correções de Estoque',                    3),
  (504,  'transferenciaestoque',            'Transferência de Estoque',                '/transferenciaestoque',            NULL,            'mdi-transfer',                       'Estoque',       'Movimentação',            'Transferência de Estoque',                4),
  (505,  'requisicoes',                     'Requisições de Estoque',                  '/requisicoes',                     NULL,            'mdi-clipboard-list-outline',         'Estoque',       'Movimentação',            'Requisições de Estoque',                  5),

  (511,  'locais',                          'Locais de Estoque',                       '/locais',                          NULL,            'mdi-warehouse',                      'Estoque',       'Cadastros de Estoque',    'Locais de Estoque',                       1),

  (521,  'barris',                          'Barris',                                  '/barris',                          NULL,            'mdi-barrel',                         'Estoque',       'Controle de Barris',      'Barris',                                  1),
  (522,  'carregamentobarris',              'Carregamento de Barris',                  '/carregamentobarris',              NULL,            'mdi-truck-cargo-container',          'Estoque',       'Controle de Barris',      'Carregamento de Barris',                  2),
  (523,  'carregamentobarrisp',             'Lançamento de Carregamento de Barris',    '/carregamentobarrisp/inserir',     NULL,            'mdi-truck-fast',                     'Estoque',       'Controle de Barris',      'Lançamento de Carregamento de Barris',    3),

  (531,  'fabrica',                         'Ordens de Fabricação',                    NULL,                               'BSFABRICA.exe', 'mdi-factory',                        'Estoque',       'Produção',                'Ordens de Fabricação',                    1),

  (601,  'contasapagar',                    'Contas a Pagar',                          '/contasapagar',                    NULL,            'mdi-cash-minus',                     'Financeiro',    'Contas a Pagar',          'Contas a Pagar',                          1),
  (602,  'baixacontaspagar',                'Baixa de Contas a Pagar',                 '/baixacontaspagar',                NULL,            'mdi-cash-check',                     'Financeiro',    'Contas a Pagar',          'Baixa de Contas a Pagar',                 2),

  (611,  'contasareceber',                  'Contas a Receber',                        '/contasareceber',                  NULL,            'mdi-cash-plus',                      'Financeiro',    'Contas a Receber',        'Contas a Receber',                        1),
  (612,  'reciboavulso',                    'Recibo Avulso',                           '/reciboavulso',                    NULL,            'mdi-receipt',                        'Financeiro',    'Contas a Receber',        'Recibo Avulso',                           2),

  (621,  'movimentodiario',                 'Movimento Diário',                        '/movimentodiario',                 NULL,            'mdi-cash-register',                  'Financeiro',    'Bancos e Caixa',          'Movimento Diário',                        1),
  (622,  'conciliacaobancaria',             'Conciliação Bancária',                    '/conciliacaobancaria',             NULL,            'mdi-bank-check',                     'Financeiro',    'Bancos e Caixa',          'Conciliação Bancária',                    2),
  (623,  'bancos',                          'Bancos',                                  '/bancos',                          NULL,            'mdi-bank',                           'Financeiro',    'Bancos e Caixa',          'Bancos',                                  3),

  (631,  'formaspagamento',                 'Formas de Pagamento',                     '/formaspagamento',                 NULL,            'mdi-credit-card-outline',            'Financeiro',    'Tabelas Financeiras',     'Formas de Pagamento',                     1),
  (632,  'condicoesvencimento',             'Condições de Vencimento',                 '/condicoesvencimento',             NULL,            'mdi-calendar-range',                 'Financeiro',    'Tabelas Financeiras',     'Condições de Vencimento',                 2),
  (633,  'historicopadrao',                 'Centro de Custo',                         '/historicopadrao',                 NULL,            'mdi-sitemap',                        'Financeiro',    'Tabelas Financeiras',     'Centro de Custo',                         3),
  (634,  'gruposhistoricopadrao',           'Grupos de Centro de Custo',               '/gruposhistoricopadrao',           NULL,            'mdi-file-tree',                      'Financeiro',    'Tabelas Financeiras',     'Grupos de Centro de Custo',               4),
  (635,  'historicos',                      'Históricos',                              '/historicos',                      NULL,            'mdi-text-box-outline',               'Financeiro',    'Tabelas Financeiras',     'Históricos',                              5),

  (701,  'cte',                             'CT-e - Conhecimento de Transporte',       '/cte',                             NULL,            'mdi-truck-check',                    'Fiscal',        'Documentos Fiscais',      'CT-e - Conhecimento de Transporte',       1),
  (702,  'mdfe',                            'MDF-e - Manifesto de Documentos Fiscais', '/mdfe',                            NULL,            'mdi-file-document-multiple-outline', 'Fiscal',        'Documentos Fiscais',      'MDF-e - Manifesto de Documentos Fiscais', 2),
  (703,  'emissornfe',                      'Emissor de NF-e',                         NULL,                               'BSNFE.exe',     'mdi-file-certificate-outline',       'Fiscal',        'Documentos Fiscais',      'Emissor de NF-e',                         3),

  (711,  'naturezasoperacao',               'Naturezas de Operação',                   '/naturezasoperacao',               NULL,            'mdi-swap-horizontal',                'Fiscal',        'Tabelas Fiscais',         'Naturezas de Operação',                   1),
  (712,  'tributacoes',                     'Tributação ICMS',                         '/tributacoes',                     NULL,            'mdi-percent',                        'Fiscal',        'Tabelas Fiscais',         'Tributação ICMS',                         2),
  (713,  'ncm',                             'NCM',                                     '/ncm',                             NULL,            'mdi-barcode',                        'Fiscal',        'Tabelas Fiscais',         'NCM',                                     3),
  (714,  'numeracoes',                      'Numeração de Documentos',                 '/numeracoes',                      NULL,            'mdi-numeric',                        'Fiscal',        'Tabelas Fiscais',         'Numeração de Documentos',                 4),

  (721,  'integracaodominio',               'Integração Domínio',                      '/integracaodominio',               NULL,            'mdi-sync',                           'Fiscal',        'Contabilidade',           'Integração Domínio',                      1),

  (801,  'dashboard',                       'Dashboard',                               '/dashboard',                       NULL,            'mdi-view-dashboard',                 'Relatórios',    'Gerencial',               'Dashboard',                               1),

  (811,  'relatoriodevendas',               'Relatório de Vendas',                     '/relatoriodevendas',               NULL,            'mdi-chart-bar',                      'Relatórios',    'Vendas',                  'Relatório de Vendas',                     1),
  (812,  'relatoriovendadeprodutos',        'Venda de Produtos',                       '/relatoriovendadeprodutos',        NULL,            'mdi-package-variant',                'Relatórios',    'Vendas',                  'Venda de Produtos',                       2),
  (813,  'relatoriovendadeservicos',        'Venda de Serviços',                       '/relatoriovendadeservicos',        NULL,            'mdi-account-wrench-outline',         'Relatórios',    'Vendas',                  'Venda de Serviços',                       3),
  (814,  'relatoriocurvadeprodutos',        'Curva de Produtos',                       '/relatoriocurvadeprodutos',        NULL,            'mdi-chart-line',                     'Relatórios',    'Vendas',                  'Curva de Produtos',                       4),
  (815,  'relatorioscurvadegrupos',         'Curva de Grupos de Produtos',             '/relatorioscurvadegrupos',         NULL,            'mdi-chart-areaspline',               'Relatórios',    'Vendas',                  'Curva de Grupos de Produtos',             5),
  (816,  'relatorioscurvadeclientes',       'Curva de Clientes',                       '/relatorioscurvadeclientes',       NULL,            'mdi-chart-bell-curve',               'Relatórios',    'Vendas',                  'Curva de Clientes',                       6),
  (817,  'relatorioscurvaderepresentantes', 'Curva de Representantes',                 '/relatorioscurvaderepresentantes', NULL,            'mdi-account-tie',                    'Relatórios',    'Vendas',                  'Curva de Representantes',                 7),
  (818,  'relatorioscomissao',              'Relatório de Comissões',                  '/relatorioscomissao',              NULL,            'mdi-percent-outline',                'Relatórios',    'Vendas',                  'Relatório de Comissões',                  8),
  (819,  'relatoriosformaspagamento',       'Vendas por Forma de Pagamento',           '/relatoriosformaspagamento',       NULL,            'mdi-credit-card-multiple-outline',   'Relatórios',    'Vendas',                  'Vendas por Forma de Pagamento',           9),
  (820,  'relatoriosfaturamentocontabil',   'Faturamento Contábil',                    '/relatoriosfaturamentocontabil',   NULL,            'mdi-file-chart',                     'Relatórios',    'Vendas',                  'Faturamento Contábil',                    10),

  (831,  'relatorioordemdeservico',         'Relatório de Ordens de Serviço',          '/relatorioordemdeservico',         NULL,            'mdi-clipboard-text-outline',         'Relatórios',    'Serviços',                'Relatório de Ordens de Serviço',          1),
  (832,  'relatoriodeosporsetor',           'Ordens de Serviço por Setor',             '/relatoriodeosporsetor',           NULL,            'mdi-chart-pie',                      'Relatórios',    'Serviços',                'Ordens de Serviço por Setor',             2),
  (833,  'relatorioshistoricoveicular',     'Histórico Veicular',                      '/relatorioshistoricoveicular',     NULL,            'mdi-car-clock',                      'Relatórios',    'Serviços',                'Histórico Veicular',                      3),

  (841,  'relatoriosclientes',              'Relatório de Clientes',                   '/relatoriosclientes',              NULL,            'mdi-account-details',                'Relatórios',    'Cadastros',               'Relatório de Clientes',                   1),
  (842,  'relatoriosfornecedores',          'Relatório de Fornecedores',               '/relatoriosfornecedores',          NULL,            'mdi-truck-delivery-outline',         'Relatórios',    'Cadastros',               'Relatório de Fornecedores',               2),
  (843,  'relatoriosprodutos',              'Relatório de Produtos',                   '/relatoriosprodutos',              NULL,            'mdi-package-variant-closed-check',   'Relatórios',    'Cadastros',               'Relatório de Produtos',                   3),

  (851,  'relatorioscompras',               'Relatório de Compras',                    '/relatorioscompras',               NULL,            'mdi-cart-outline',                   'Relatórios',    'Compras e Estoque',       'Relatório de Compras',                    1),
  (852,  'relatoriosrazaofornecedores',     'Razão de Fornecedores',                   '/relatoriosrazaofornecedores',     NULL,            'mdi-book-open-variant',              'Relatórios',    'Compras e Estoque',       'Razão de Fornecedores',                   2),
  (853,  'relatoriosmovimentacaoestoque',   'Movimentação de Estoque',                 '/relatoriosmovimentacaoestoque',   NULL,            'mdi-swap-vertical-bold',             'Relatórios',    'Compras e Estoque',       'Movimentação de Estoque',                 3),
  (854,  'relatoriosestimativaestoque',     'Estimativa de Estoque',                   '/relatoriosestimativaestoque',     NULL,            'mdi-chart-timeline-variant-shimmer', 'Relatórios',    'Compras e Estoque',       'Estimativa de Estoque',                   4),
  (855,  'relatorioderequisicoes',          'Relatório de Requisições',                '/relatorioderequisicoes',          NULL,            'mdi-clipboard-list',                 'Relatórios',    'Compras e Estoque',       'Relatório de Requisições',                5),

  (861,  'relatorioderecebimentos',         'Relatório de Recebimentos',               '/relatorioderecebimentos',         NULL,            'mdi-cash-multiple',                  'Relatórios',    'Financeiro',              'Relatório de Recebimentos',               1),
  (862,  'relatorioscontasareceber',        'Relatório de Contas a Receber',           '/relatorioscontasareceber',        NULL,            'mdi-receipt-text-plus-outline',      'Relatórios',    'Financeiro',              'Relatório de Contas a Receber',           2),
  (863,  'relatorioscontasapagar',          'Relatório de Contas a Pagar',             '/relatorioscontasapagar',          NULL,            'mdi-receipt-text-minus-outline',     'Relatórios',    'Financeiro',              'Relatório de Contas a Pagar',             3),
  (864,  'relatoriosmovbancario',           'Movimentação Bancária',                   '/relatoriosmovbancario',           NULL,            'mdi-bank-transfer',                  'Relatórios',    'Financeiro',              'Movimentação Bancária',                   4),

  (901,  'solicitacoes',                    'Solicitações',                            '/solicitacoes',                    NULL,            'mdi-headset',                        'Help Desk',     NULL,                      'Solicitações',                            1),
  (902,  'solicitacoes/agenda',             'Agenda de Solicitações',                  '/solicitacoes/agenda',             NULL,            'mdi-calendar-month',                 'Help Desk',     NULL,                      'Agenda de Solicitações',                  2),

  (911,  'solicitacoes/projeto',            'Projetos',                                '/solicitacoes/projeto',            NULL,            'mdi-briefcase-outline',              'Help Desk',     'Cadastros do Help Desk',  'Projetos',                                1),
  (912,  'solicitacao/setor',               'Setores de Atendimento',                  '/solicitacao/setor',               NULL,            'mdi-account-group-outline',          'Help Desk',     'Cadastros do Help Desk',  'Setores de Atendimento',                  2),
  (913,  'situacaosolicitacao',             'Situações de Solicitação',                '/situacaosolicitacao',             NULL,            'mdi-list-status',                    'Help Desk',     'Cadastros do Help Desk',  'Situações de Solicitação',                3),

  (1001, 'whatsapp',                        'WhatsApp',                                '/whatsapp',                        NULL,            'mdi-whatsapp',                       'Comunicação',   NULL,                      'WhatsApp',                                1),
  (1002, 'inteligenciaartificial',          'Inteligência Artificial',                 '/inteligenciaartificial',          NULL,            'mdi-robot',                          'Comunicação',   NULL,                      'Inteligência Artificial',                 2),

  (1101, 'empresas',                        'Empresas',                                '/empresas',                        NULL,            'mdi-domain',                         'Administração', 'Empresas e Usuários',     'Empresas',                                1),
  (1102, 'usuarios',                        'Usuários',                                '/usuarios',                        NULL,            'mdi-account-key',                    'Administração', 'Empresas e Usuários',     'Usuários',                                2),
  (1103, 'programas',                       'Programas',                               '/programas',                       NULL,            'mdi-application-cog',                'Administração', 'Empresas e Usuários',     'Programas',                               3),

  (1111, 'gerenciadorempresas',             'Gerenciador de Empresas',                 '/gerenciadorempresas',             NULL,            'mdi-office-building-cog',            'Administração', 'Suporte',                 'Gerenciador de Empresas',                 1),
  (1112, 'empresaslead',                    'Base de Leads',                           '/empresaslead',                    NULL,            'mdi-account-search',                 'Administração', 'Suporte',                 'Base de Leads',                           2),
  (1113, 'atualizabanco',                   'Atualização de Banco de Dados',           '/atualizabanco',                   NULL,            'mdi-database-sync',                  'Administração', 'Suporte',                 'Atualização de Banco de Dados',           3),
  (1114, 'monitoramentobackupbancos',       'Monitoramento de Backups',                '/monitoramentobackupbancos',       NULL,            'mdi-database-clock',                 'Administração', 'Suporte',                 'Monitoramento de Backups',                4);
